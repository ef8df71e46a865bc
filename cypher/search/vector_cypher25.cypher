// Vector-index candidates nearest to an embedded query, restricted to one graph: Cypher 25's SEARCH clause, for
// servers that have it (2026.01+, GraphStore.search_clause); search/vector is the procedure form for the others.
// params: graph, vector, k, limit
// returns: uid, id, name, type, aliases, score
CYPHER 25
MATCH (node:Entity)
  SEARCH node IN (VECTOR INDEX entity_embedding FOR $vector LIMIT $k) SCORE AS score
  WHERE node.graph = $graph
RETURN node.uid AS uid, node.id AS id, node.name AS name, node.type AS type, node.aliases AS aliases, score
ORDER BY score DESC
LIMIT $limit
