// The relationship types between the entities of one graph, most frequent first (the MCP graph_schema tool).
// params: graph
// returns: relation, n
MATCH (:Entity {graph: $graph})-[r]->(:Entity)
RETURN type(r) AS relation, count(*) AS n
ORDER BY n DESC, relation
