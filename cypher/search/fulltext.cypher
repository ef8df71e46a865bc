// Fulltext candidates over names and aliases (the query is an escaped Lucene string); the index spans every
// graph, so `pool` hits are read and filtered to this graph.
// params: graph, lucene, pool, limit
// returns: uid, id, name, type, aliases, score
CALL db.index.fulltext.queryNodes('entity_names', $lucene, {limit: $pool}) YIELD node, score
WHERE node.graph = $graph
RETURN node.uid AS uid, node.id AS id, node.name AS name, node.type AS type, node.aliases AS aliases, score
ORDER BY score DESC
LIMIT $limit
