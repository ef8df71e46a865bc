// Replay one walk in the Browser graph view: the walk, its steps in NEXT order, the entities each step stood on
// (AT) and chose (CHOSE), the decision calls and the answers. One row per step, by depth, beam, position.
// On an adopted graph (one with a :GwGraphProfile) the trace has no links to the user's nodes: they are found by
// the element ids it keeps (node_ids, chosen_target_ids, answer_ids) and linked by virtual relationships.
// Browser: :param walkId => 'the-walk-id'   (ids: `gw-neo4j walks list`), then run this query.
// params: walkId
// returns: depth, beam, kind, kept, chosen, p, path, stood_on, chose, decided_by, answers
MATCH (w:Walk {id: $walkId})
MATCH path = (w)-[:FIRST_STEP]->(:Step)-[:NEXT*0..]->(s:Step)
WITH w, s, path, EXISTS { (:GwGraphProfile {graph: w.graph}) } AS adopted
CALL (s, adopted) {
  CALL (s, adopted) {
    MATCH p = (s)-[:AT]->(:Entity)
    RETURN p
    UNION
    UNWIND CASE WHEN adopted THEN s.node_ids ELSE [] END AS id
    MATCH (a)
    WHERE elementId(a) = id AND NOT a:Entity
    RETURN apoc.path.create(s, [apoc.create.vRelationship(s, 'AT', {}, a)]) AS p
  }
  RETURN collect(p) AS stood_on
}
CALL (s, adopted) {
  CALL (s, adopted) {
    MATCH p = (s)-[:CHOSE]->(:Entity)
    RETURN p
    UNION
    UNWIND CASE WHEN adopted THEN s.chosen_target_ids ELSE [] END AS id
    MATCH (b)
    WHERE elementId(b) = id AND NOT b:Entity
    RETURN apoc.path.create(s, [apoc.create.vRelationship(s, 'CHOSE', {}, b)]) AS p
  }
  RETURN collect(p) AS chose
}
CALL (w, adopted) {
  CALL (w, adopted) {
    MATCH p = (w)-[r:ANSWERED]->(:Entity)
    RETURN p, r.rank AS rank
    UNION
    UNWIND CASE WHEN adopted THEN range(0, size(coalesce(w.answer_ids, [])) - 1) ELSE [] END AS i
    MATCH (a)
    WHERE elementId(a) = w.answer_ids[i] AND NOT a:Entity
    RETURN apoc.path.create(w, [apoc.create.vRelationship(w, 'ANSWERED',
             {rank: i + 1, score: w.answer_scores[i]}, a)]) AS p, i + 1 AS rank
  }
  WITH p, rank
  ORDER BY rank
  RETURN collect(p) AS answers
}
OPTIONAL MATCH decided = (s)-[:DECIDED_BY]->(:Call)
RETURN s.depth AS depth, s.beam AS beam, s.kind AS kind, s.kept AS kept, s.chosen AS chosen, s.p AS p,
       path, stood_on, chose, decided AS decided_by, answers
ORDER BY depth, beam, s.seq
