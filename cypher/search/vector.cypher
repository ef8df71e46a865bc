// Vector-index candidates nearest to an embedded query, restricted to one graph.
// params: graph, vector, k, limit
// returns: uid, id, name, type, aliases, score
CALL db.index.vector.queryNodes('entity_embedding', $k, $vector) YIELD node, score
WHERE node.graph = $graph
RETURN node.uid AS uid, node.id AS id, node.name AS name, node.type AS type, node.aliases AS aliases, score
ORDER BY score DESC
LIMIT $limit
