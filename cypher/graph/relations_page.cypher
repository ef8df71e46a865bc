// Training from the graph alone: one page of a graph's entities (in uid order) with their outgoing data
// relationships and the far ends' id, name and type. Trace and provenance links ($bookkeeping) are left out.
// params: graph, bookkeeping, after, limit
// returns: uid, id, name, type, relation, target, target_name, target_type
MATCH (n:Entity {graph: $graph})
WHERE n.uid > $after
WITH n ORDER BY n.uid LIMIT $limit
OPTIONAL MATCH (n)-[r]->(m:Entity {graph: $graph})
WHERE NOT type(r) IN $bookkeeping
RETURN n.uid AS uid, n.id AS id, n.name AS name, n.type AS type, type(r) AS relation, m.id AS target,
       m.name AS target_name, m.type AS target_type
ORDER BY uid
