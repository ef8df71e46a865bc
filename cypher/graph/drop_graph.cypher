// Delete everything that belongs to one graph name (entities, ledger, walks), in batches. Other graphs are untouched.
// params: graph
// returns: none
MATCH (n) WHERE n.graph = $graph
CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 5000 ROWS
