// Vector-index candidates among adopted nodes nearest to an embedded query, restricted to one graph: Cypher 25's
// SEARCH clause (2026.01+, GraphStore.search_clause); search/adopted_vector is the procedure form.
// params: graph, vector, k, limit
// returns: uid, id, name, type, aliases, score
CYPHER 25
MATCH (node:GwAdopted)
  SEARCH node IN (VECTOR INDEX gw_adopt_embedding FOR $vector LIMIT $k) SCORE AS score
  WHERE node.gw_graph = $graph
RETURN elementId(node) AS uid, elementId(node) AS id, node.gw_name AS name, node.gw_type AS type, [] AS aliases,
       score
ORDER BY score DESC
LIMIT $limit
