// Run a walk from one Cypher statement: POST $question to the running service (`gw-neo4j serve`) with
// apoc.load.jsonParams, then return its answers and the walk drawn as `draw_walk` draws it, in the same statement.
// Every write happens in the service, which commits the trace before it answers; this side only reads, so it holds
// no lock the service could wait for. $service is the service's base URL (default http://127.0.0.1:8765); $graph
// null means 'default', $preset null the service's default. APOC's HTTP read timeout (apoc.http.timeout.read in
// apoc.conf, 60 s unless raised; the local server sets 600 s) bounds how long the walk may take.
// Browser: :params {question: 'which movies did Christopher Nolan direct', graph: 'demo', preset: null, service: 'http://127.0.0.1:8765'}
// params: question, graph, preset, service
// returns: walk_id, status, answers, walk, start, hops, answered
CALL apoc.load.jsonParams($service + '/v1/walk',
  {method: 'POST', `Content-Type`: 'application/json', Accept: 'application/json'},
  apoc.convert.toJson({question: $question, graph: coalesce($graph, 'default'), preset: $preset}))
YIELD value
OPTIONAL MATCH (w:Walk {id: value.walk_id})
CALL (w) {
  MATCH (w)-[:HAS_STEP]->(s:Step)-[:AT]->(a:Entity)
  WHERE s.kept AND NOT s.is_stop AND s.chosen_relation IS NOT NULL
  MATCH (s)-[:CHOSE]->(b:Entity)
  WHERE EXISTS {
    MATCH (a)-[r]-(b)
    WHERE type(r) = s.chosen_relation AND (startNode(r) = a) = (s.chosen_direction = 'out')
  }
  WITH a, b, s.depth AS depth, coalesce(s.hop, s.chosen_relation) AS hop, collect(s) AS steps
  WITH a, b, depth, hop, steps[0] AS s
  ORDER BY depth, s.beam, s.seq, b.name
  RETURN collect(apoc.path.create(a, [apoc.create.vRelationship(a, hop,
           {depth: depth, relation: s.chosen_relation, direction: s.chosen_direction, p: s.p, step_id: s.id}, b)]))
         AS hops
}
RETURN value.walk_id AS walk_id, value.status AS status, [a IN value.answers | a.name] AS answers, w AS walk,
       COLLECT { MATCH p = (w)-[:STARTED_AT]->(:Entity) RETURN p } AS start, hops,
       COLLECT { MATCH p = (w)-[r:ANSWERED]->(:Entity) WITH p, r ORDER BY r.rank RETURN p } AS answered
