// Relation hops, one round trip per depth for every beam: first the frontier, then the moves out of it.
// The frontier is req.node_ids, or with req.follow = {relation, direction} the distinct targets of that move
// from req.node_ids that are not in req.exclude, ordered by name then id and returned as `moved` [id, name, type]
// rows. When it holds more than req.max_frontier nodes the moves are not built (the orchestrator caps it by
// similarity and asks again without follow); with req.moves = false they are never built (resolve only).
// Moves come from per-(relation, direction) edge counts: dense nodes read their stored per-type degrees, sparse
// ones count their relationship records. Far ends are read only until $scan distinct targets outside the
// visited nodes (req.exclude and the frontier) are found, so a move with at most $scan edges is read whole
// (exact), and a move whose targets are all visited is not offered.
// Only data relationships count: trace and provenance links are skipped by type (and a followed move is always
// a data relationship, so its far ends are entities).
// params: requests, graph, scan, dense
// returns: beam_key, moved, total, moves
UNWIND $requests AS req
CALL (req) {
  UNWIND req.node_ids AS nid
  MATCH (n:Entity {uid: $graph + ':' + nid})
  RETURN collect(n) AS start
}
CALL (req, start) {
  WITH req, start WHERE req.follow IS NULL
  RETURN start AS frontier, null AS moved, size(start) AS total
  UNION
  WITH req, start WHERE req.follow IS NOT NULL
  CALL (req, start) {
    WITH req, start WHERE req.follow.direction = 'out'
    UNWIND start AS n
    MATCH (n)-[:$(req.follow.relation)]->(m)
    RETURN m
    UNION
    WITH req, start WHERE req.follow.direction = 'in'
    UNWIND start AS n
    MATCH (n)<-[:$(req.follow.relation)]-(m)
    RETURN m
  }
  WITH req, m WHERE NOT m.id IN req.exclude
  ORDER BY m.name, m.id
  WITH req, collect(m) AS ms
  RETURN CASE WHEN size(ms) <= req.max_frontier THEN ms ELSE [] END AS frontier,
         [m IN ms | [m.id, m.name, m.type]] AS moved, size(ms) AS total
}
CALL (req, frontier, total) {
  WITH req, frontier, total WHERE req.moves AND total <= req.max_frontier
  WITH frontier, req.exclude + [f IN frontier | f.id] AS excluded
  UNWIND frontier AS n
  WITH excluded, n, COUNT { (n)--() } AS degree
  CALL (n, degree, excluded) {
    WITH n, degree WHERE degree > $dense
    UNWIND [t IN apoc.node.relationship.types(n) WHERE NOT t IN ['AT', 'CHOSE', 'ANSWERED', 'STARTED_AT', 'FROM_CHUNK']]
      AS relation
    CALL (n, relation, excluded) {
      MATCH (n)-[:$(relation)]->(m)
      WHERE NOT m.id IN excluded
      WITH m LIMIT $scan
      RETURN 'out' AS direction, apoc.node.degree.out(n, relation) AS edges, collect(m) AS sample
      UNION ALL
      MATCH (n)<-[:$(relation)]-(m)
      WHERE NOT m.id IN excluded
      WITH m LIMIT $scan
      RETURN 'in' AS direction, apoc.node.degree.in(n, relation) AS edges, collect(m) AS sample
    }
    RETURN relation, direction, edges, sample
    UNION ALL
    WITH n, degree WHERE degree <= $dense
    MATCH (n)-[r]-(m)
    WITH type(r) AS relation, CASE WHEN startNode(r) = n THEN 'out' ELSE 'in' END AS direction, m
    RETURN relation, direction, count(*) AS edges, collect(m) AS sample
  }
  WITH excluded, relation, direction, sum(edges) AS edges, collect(sample) AS samples
  WHERE edges > 0 AND NOT relation IN ['AT', 'CHOSE', 'ANSWERED', 'STARTED_AT', 'FROM_CHUNK']
  CALL (samples, excluded) {
    UNWIND samples AS sample
    UNWIND sample AS m
    WITH m WHERE m:Entity AND NOT m.id IN excluded
    WITH DISTINCT m LIMIT $scan
    WITH m ORDER BY m.name, m.id
    RETURN collect([m.id, m.name, m.type]) AS targets
  }
  WITH relation, direction, edges, targets WHERE size(targets) > 0
  RETURN collect([relation, direction, edges, targets]) AS moves
}
RETURN req.beam_key AS beam_key, moved, total, moves
