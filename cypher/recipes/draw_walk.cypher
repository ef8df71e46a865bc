// Draw one walk to read at a glance: the question (:Walk) -> its start entities -> one virtual relationship per
// hop, typed by the hop's caption (`starred_actors → .70`: relation, ← when walked against its direction, the
// chosen probability) -> the entities it reached -> the answers (ANSWERED, by rank). Only kept moves are drawn;
// unchosen and pruned options are on demand in `walk_options`. Nothing is written (APOC virtual relationships).
// Walks over an adopted graph (one with a :GwGraphProfile) have no AT / CHOSE / STARTED_AT / ANSWERED links to the
// user's nodes (adopt never adds relationships to them): their nodes are found by the element ids the trace keeps
// (node_ids, chosen_target_ids, start_ids, answer_ids), and the links are drawn as virtual relationships.
// Browser: :param walkId => 'the-walk-id'   (ids: `gw-neo4j walks list`; null: the latest walk), then run this.
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
RETURN w AS walk, w.question AS question, w.status AS status, coalesce(w.answer_names, []) AS answers,
       start, hops, answered
