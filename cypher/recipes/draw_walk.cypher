// Draw one walk to read at a glance: the question (:Walk) -> its start entities -> one virtual relationship per
// hop, typed by the hop's caption (`starred_actors → .70`: relation, ← when walked against its direction, the
// chosen probability) -> the entities it reached -> the answers (ANSWERED, by rank). Only kept moves are drawn;
// unchosen and pruned options are on demand in `walk_options`. Nothing is written (APOC virtual relationships).
// Browser: :param walkId => 'the-walk-id'   (ids: `gw-neo4j trace list`; null: the latest walk), then run this.
// params: walkId
// returns: walk, question, status, answers, start, hops, answered
CALL () {
  MATCH (w:Walk {id: $walkId})
  RETURN w
  UNION
  MATCH (w:Walk)
  WHERE $walkId IS NULL
  WITH w ORDER BY w.started_at DESC LIMIT 1
  RETURN w
}
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
RETURN w AS walk, w.question AS question, w.status AS status, coalesce(w.answer_names, []) AS answers,
       COLLECT { MATCH p = (w)-[:STARTED_AT]->(:Entity) RETURN p } AS start, hops,
       COLLECT { MATCH p = (w)-[r:ANSWERED]->(:Entity) WITH p, r ORDER BY r.rank RETURN p } AS answered
