// Relation hops: for every active beam's frontier, one row per distinct (relation, direction) with its distinct
// targets as [id, name, type] rows ordered by name, in ONE round trip. The orchestrator drops visited nodes and
// caps each target list at max_frontier (by similarity to the question when embeddings exist).
// params: requests, graph
// returns: beam_key, options
UNWIND $requests AS req
CALL (req) {
  UNWIND req.node_ids AS nid
  MATCH (n:Entity {uid: $graph + ':' + nid})-[r]-(m:Entity)
  WHERE m.graph = $graph
    AND (req.direction = 'both' OR (req.direction = 'out') = (startNode(r) = n))
  WITH type(r) AS relation, CASE WHEN startNode(r) = n THEN 'out' ELSE 'in' END AS direction, m
  ORDER BY m.name, m.id
  WITH relation, direction, collect(DISTINCT [m.id, m.name, m.type]) AS targets
  RETURN collect({relation: relation, direction: direction, targets: targets}) AS options
}
RETURN req.beam_key AS beam_key, options
