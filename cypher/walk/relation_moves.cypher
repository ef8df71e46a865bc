// Relation hops, one round trip per depth for every beam: first the frontier, then the moves out of it.
// The frontier is req.node_ids, or with req.follow = {relation, direction} the distinct targets of that move
// from req.node_ids that are not in req.exclude, ordered by name then id and returned as `moved` [id, name, type]
// rows. When it holds more than req.max_frontier nodes the moves are not built (the orchestrator caps it by
// similarity and asks again without follow); with req.moves = false they are never built (resolve only).
// Moves come from per-(relation, direction) edge counts: dense nodes read their stored per-type degrees, sparse
// ones count their relationship records; far ends are not read, except up to $scan targets per move (all of
// them when the move has at most $scan edges, so small moves are exact).
// Only data relationships count: trace and provenance links are skipped by type.
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
    MATCH (n)-[:$(req.follow.relation)]->(m:Entity)
    RETURN m
    UNION
    WITH req, start WHERE req.follow.direction = 'in'
    UNWIND start AS n
    MATCH (n)<-[:$(req.follow.relation)]-(m:Entity)
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
  UNWIND frontier AS n
  CALL (n) {
    WITH n WHERE COUNT { (n)--() } > $dense
    UNWIND apoc.node.relationship.types(n) AS relation
    CALL (n, relation) {
      MATCH (n)-[:$(relation)]->(m)
      WITH m LIMIT $scan
      RETURN 'out' AS direction, apoc.node.degree.out(n, relation) AS edges, collect(m) AS sample
      UNION ALL
      MATCH (n)<-[:$(relation)]-(m)
      WITH m LIMIT $scan
      RETURN 'in' AS direction, apoc.node.degree.in(n, relation) AS edges, collect(m) AS sample
    }
    RETURN relation, direction, edges, sample
    UNION ALL
    WITH n WHERE COUNT { (n)--() } <= $dense
    MATCH (n)-[r]-(m)
    WITH type(r) AS relation, CASE WHEN startNode(r) = n THEN 'out' ELSE 'in' END AS direction, m
    RETURN relation, direction, count(*) AS edges, collect(m)[..$scan] AS sample
  }
  WITH relation, direction, sum(edges) AS edges, collect(sample) AS samples
  WHERE edges > 0 AND NOT relation IN ['AT', 'CHOSE', 'ANSWERED', 'STARTED_AT', 'FROM_CHUNK']
  WITH relation, direction, edges,
       reduce(acc = [], s IN samples | CASE WHEN size(acc) >= $scan THEN acc ELSE acc + s END)[..$scan] AS sample
  CALL (sample) {
    UNWIND sample AS m
    WITH m WHERE m:Entity
    WITH m ORDER BY m.name, m.id
    RETURN collect([m.id, m.name, m.type]) AS targets
  }
  RETURN collect([relation, direction, edges, targets]) AS moves
}
RETURN req.beam_key AS beam_key, moved, total, moves
