// Entity hops: the neighbours of every active beam's node in ONE round trip, as compact rows
// [relation, direction, id, name, type, degree]. Up to req.limit neighbours are ordered by importance (degree),
// then relation, direction, name; longer lists (hubs) skip the degree count and come ordered by relation,
// direction, name, because the orchestrator reorders them by similarity to the question anyway.
// Degrees count data relationships only: trace and provenance links are subtracted (O(1) degree look-ups).
// params: requests, graph
// returns: beam_key, neighbours
UNWIND $requests AS req
OPTIONAL MATCH (n:Entity {uid: $graph + ':' + req.node_id})
CALL (n, req) {
  WITH n, req, (COUNT { (n)--() } - COUNT { (n)-[:AT|CHOSE|ANSWERED|STARTED_AT|FROM_CHUNK]-() }) <= req.limit AS small
  MATCH (n)-[r]-(m:Entity)
  WHERE m.graph = $graph AND NOT m.id IN req.exclude
    AND (req.direction = 'both' OR (req.direction = 'out') = (startNode(r) = n))
  WITH r, m, CASE WHEN startNode(r) = n THEN 'out' ELSE 'in' END AS dir,
       CASE WHEN small THEN (COUNT { (m)--() } - COUNT { (m)-[:AT|CHOSE|ANSWERED|STARTED_AT|FROM_CHUNK]-() }) ELSE 0 END AS degree
  ORDER BY degree DESC, type(r), dir, m.name
  RETURN collect([type(r), dir, m.id, m.name, m.type, degree]) AS neighbours
}
RETURN req.beam_key AS beam_key, neighbours
