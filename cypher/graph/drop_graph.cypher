// Delete every graphwalk-managed node (entities, ledger, walks) of one graph name, in batches. A node is ours only
// when it carries one of $labels; a user's node that happens to have a `graph` property is never touched. Other
// graphs are untouched.
// params: graph, labels
// returns: none
MATCH (n) WHERE n.graph = $graph AND any(label IN labels(n) WHERE label IN $labels)
CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 5000 ROWS
