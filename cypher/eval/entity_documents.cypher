// Vector baseline: one page of entities (ordered by uid) with up to $max_triples incident triples each, as
// [subject, relation, object] name triples ordered by relation, then the other end's name.
// params: graph, after, limit, max_triples
// returns: uid, id, name, type, triples
MATCH (n:Entity {graph: $graph})
WHERE n.uid > $after
WITH n ORDER BY n.uid LIMIT $limit
CALL (n) {
  OPTIONAL MATCH (n)-[r]-(m:Entity {graph: $graph})
  WITH n, r, m, startNode(r) = n AS outgoing
  WHERE r IS NOT NULL
  ORDER BY type(r), m.name, m.id
  LIMIT $max_triples
  RETURN collect(CASE WHEN outgoing THEN [n.name, type(r), m.name] ELSE [m.name, type(r), n.name] END) AS triples
}
RETURN n.uid AS uid, n.id AS id, n.name AS name, n.type AS type, triples
