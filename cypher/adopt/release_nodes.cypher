// Remove the namespace from up to `limit` nodes of an adopted graph: all of them (undo), or only those that no
// longer carry any of the profile's labels (`keep`, after a re-adopt with fewer labels or a user's relabel).
// params: graph, keep, limit
// returns: n
MATCH (n:GwAdopted {gw_graph: $graph})
WHERE $keep IS NULL OR none(l IN labels(n) WHERE l IN $keep)
WITH n LIMIT $limit
REMOVE n:GwAdopted, n.gw_graph, n.gw_name, n.gw_name_lc, n.gw_type, n.gw_hash, n.gw_embedding, n.gw_embed_hash
RETURN count(n) AS n
