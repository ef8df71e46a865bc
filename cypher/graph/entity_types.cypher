// The distinct entity types of a graph (for the answer-type hint), most frequent first.
// params: graph
// returns: type, n
MATCH (n:Entity {graph: $graph})
WHERE n.type IS NOT NULL
RETURN n.type AS type, count(*) AS n
ORDER BY n DESC, type
