// Entity and relationship counts of one graph.
// params: graph
// returns: entities, relationships
MATCH (n:Entity {graph: $graph})
WITH count(n) AS entities
OPTIONAL MATCH (:Entity {graph: $graph})-[r]->(:Entity)
RETURN entities, count(r) AS relationships
