// Delete the stored walks of one adopted graph (graphwalk's own :Walk / :Step / :Call nodes, never user nodes).
// params: graph
// returns: none
MATCH (n)
WHERE (n:Walk OR n:Step OR n:Call) AND n.graph = $graph
CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 5000 ROWS
