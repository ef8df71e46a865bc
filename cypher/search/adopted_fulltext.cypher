// Fulltext candidates over adopted nodes' names (escaped Lucene string); the index spans every adopted graph, so
// `pool` hits are read and filtered to this graph.
// params: graph, lucene, pool, limit
// returns: uid, id, name, type, aliases, score
CALL db.index.fulltext.queryNodes('gw_adopt_names', $lucene, {limit: $pool}) YIELD node, score
WHERE node.gw_graph = $graph
RETURN elementId(node) AS uid, elementId(node) AS id, node.gw_name AS name, node.gw_type AS type, [] AS aliases,
       score
ORDER BY score DESC
LIMIT $limit
