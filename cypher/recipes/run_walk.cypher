// Run a walk from one Cypher statement: ask the running service (`gw-neo4j serve`) for it with apoc.load.json
// (GET /v1/walk?question=&graph=&preset=), then return its answers and the walk drawn as `draw_walk` draws it, in
// the same statement. apoc.load.json is APOC Core and not deprecated; apoc.load.jsonParams, the one
// APOC call that can POST, is moving to APOC Extended, so the recipe does not use it. Every write happens in the
// service, which commits the trace before it answers; this side only reads, so it holds no lock the service could
// wait for. $service is the service's base URL, default http://127.0.0.1:8765 when null or unset (an unset
// parameter is an error in Neo4j: pass service: null for the default); $graph null means 'default', $preset null
// the service's default. A service that is down or refuses the request (unknown graph, bad preset, busy) raises
// an error naming the URL (apoc.util.validate) instead of returning no rows; a walk that ran but did not answer
// comes back as a row with its status. APOC's HTTP read timeout (apoc.http.timeout.read in apoc.conf, 60 s unless raised;
// the local server sets 600 s) bounds how long the walk may take. The service must not require a token (APOC's
// GET sends no headers): serve it on loopback without GW_NEO4J_SERVICE_TOKEN for this recipe.
// Browser: :params {question: 'which movies did Christopher Nolan direct', graph: 'demo', preset: null, service: null}
// params: question, graph, preset, service
// returns: walk_id, status, answers, walk, start, hops, answered
WITH coalesce($service, 'http://127.0.0.1:8765') AS service
WITH service, service + '/v1/walk?question=' + apoc.text.urlencode($question)
     + '&graph=' + apoc.text.urlencode(coalesce($graph, 'default'))
     + CASE WHEN $preset IS NULL THEN '' ELSE '&preset=' + apoc.text.urlencode($preset) END AS url
OPTIONAL CALL apoc.load.json(url, '', {failOnError: false}) YIELD value
CALL apoc.util.validate(value IS NULL,
  'no walk from the graphwalk service at %s: it is not running (start it: gw-neo4j serve) or it refused the request; GET %s to see why',
  [service, url])
OPTIONAL MATCH (w:Walk {id: value.walk_id})
CALL (w) {
  MATCH (w)-[:HAS_STEP]->(s:Step)
  WHERE s.kept AND NOT s.is_stop AND s.chosen_relation IS NOT NULL
  CALL (w, s) {
    MATCH (s)-[:AT]->(a:Entity)
    RETURN a
    UNION
    UNWIND CASE WHEN EXISTS { (:GwGraphProfile {graph: w.graph}) } THEN s.node_ids ELSE [] END AS id
    MATCH (a)
    WHERE elementId(a) = id AND NOT a:Entity
    RETURN a
  }
  CALL (w, s) {
    MATCH (s)-[:CHOSE]->(b:Entity)
    RETURN b
    UNION
    UNWIND CASE WHEN EXISTS { (:GwGraphProfile {graph: w.graph}) } THEN s.chosen_target_ids ELSE [] END AS id
    MATCH (b)
    WHERE elementId(b) = id AND NOT b:Entity
    RETURN b
  }
  WITH s, a, b
  WHERE EXISTS {
    MATCH (a)-[r]-(b)
    WHERE type(r) = s.chosen_relation AND (startNode(r) = a) = (s.chosen_direction = 'out')
  }
  WITH a, b, s.depth AS depth, coalesce(s.hop, s.chosen_relation) AS hop, collect(s) AS steps
  WITH a, b, depth, hop, steps[0] AS s
  ORDER BY depth, s.beam, s.seq, coalesce(b.name, b.gw_name), elementId(b)
  RETURN collect(apoc.path.create(a, [apoc.create.vRelationship(a, hop,
           {depth: depth, relation: s.chosen_relation, direction: s.chosen_direction, p: s.p, step_id: s.id}, b)]))
         AS hops
}
CALL (w) {
  CALL (w) {
    MATCH p = (w)-[:STARTED_AT]->(:Entity)
    RETURN p
    UNION
    UNWIND CASE WHEN EXISTS { (:GwGraphProfile {graph: w.graph}) } THEN w.start_ids ELSE [] END AS id
    MATCH (a)
    WHERE elementId(a) = id AND NOT a:Entity
    RETURN apoc.path.create(w, [apoc.create.vRelationship(w, 'STARTED_AT', {}, a)]) AS p
  }
  RETURN collect(p) AS start
}
CALL (w) {
  CALL (w) {
    MATCH p = (w)-[r:ANSWERED]->(:Entity)
    RETURN p, r.rank AS rank
    UNION
    UNWIND CASE WHEN EXISTS { (:GwGraphProfile {graph: w.graph}) }
                THEN range(0, size(coalesce(w.answer_ids, [])) - 1) ELSE [] END AS i
    MATCH (a)
    WHERE elementId(a) = w.answer_ids[i] AND NOT a:Entity
    RETURN apoc.path.create(w, [apoc.create.vRelationship(w, 'ANSWERED',
             {rank: i + 1, score: w.answer_scores[i]}, a)]) AS p, i + 1 AS rank
  }
  WITH p, rank
  ORDER BY rank
  RETURN collect(p) AS answered
}
RETURN value.walk_id AS walk_id, value.status AS status, [a IN value.answers | a.name] AS answers, w AS walk,
       start, hops, answered
