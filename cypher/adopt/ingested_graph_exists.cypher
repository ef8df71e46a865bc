// Whether a graph of this name was written by our own ingest (adopt refuses the name then).
// params: graph
// returns: n
MATCH (n:Entity {graph: $graph})
WITH n LIMIT 1
RETURN count(n) AS n
