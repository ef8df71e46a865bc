// Vector-index candidates among adopted nodes nearest to an embedded query, restricted to one graph.
// params: graph, vector, k, limit
// returns: uid, id, name, type, aliases, score
CALL db.index.vector.queryNodes('gw_adopt_embedding', $k, $vector) YIELD node, score
WHERE node.gw_graph = $graph
RETURN elementId(node) AS uid, elementId(node) AS id, node.gw_name AS name, node.gw_type AS type, [] AS aliases,
       score
ORDER BY score DESC
LIMIT $limit
