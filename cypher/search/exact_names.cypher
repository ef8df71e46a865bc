// Exact (case-insensitive) name look-up for many candidate spans at once (entity linking).
// params: graph, names
// returns: span, uid, id, name, type
UNWIND $names AS span
MATCH (n:Entity {graph: $graph, name_lc: span})
RETURN span, n.uid AS uid, n.id AS id, n.name AS name, n.type AS type
