// Adopted nodes whose name equals the text, case-insensitively (uses the gw_adopt_name index).
// params: graph, text_lc, limit
// returns: uid, id, name, type, aliases
MATCH (n:GwAdopted {gw_graph: $graph, gw_name_lc: $text_lc})
RETURN elementId(n) AS uid, elementId(n) AS id, n.gw_name AS name, n.gw_type AS type, [] AS aliases
LIMIT $limit
