// Entities whose name equals the text, case-insensitively (uses the (graph, name_lc) index).
// params: graph, text_lc, limit
// returns: uid, id, name, type, aliases
MATCH (n:Entity {graph: $graph, name_lc: $text_lc})
RETURN n.uid AS uid, n.id AS id, n.name AS name, n.type AS type, n.aliases AS aliases
LIMIT $limit
