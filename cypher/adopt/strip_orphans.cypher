// Remove stray gw_ properties of this graph from nodes that lost the namespace label (an interrupted undo).
// params: graph, limit
// returns: n
MATCH (n)
WHERE n.gw_graph = $graph AND NOT n:GwAdopted
WITH n LIMIT $limit
REMOVE n.gw_graph, n.gw_name, n.gw_name_lc, n.gw_type, n.gw_hash, n.gw_embedding, n.gw_embed_hash
RETURN count(n) AS n
