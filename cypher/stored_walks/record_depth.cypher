// One depth of a walk in one statement: the decision :Call (when one was made) and one :Step per step, with
// HAS_STEP, FIRST_STEP (steps without a parent), NEXT (from the parent step), AT / CHOSE (entity uids, capped
// by the writer), DECIDED_BY and HAS_CALL. Idempotent: every node and relationship is MERGEd.
// Each step row: {id, parent, call_id, at, chose, props} (at, chose: entity uids); props holds only scalars and
// lists of scalars.
// params: graph, walk_id, calls, steps
// returns: none
MERGE (w:Walk {id: $walk_id})
  ON CREATE SET w.graph = $graph, w.status = 'running'
FOREACH (c IN $calls |
  MERGE (k:Call {id: c.id})
  SET k += c
  MERGE (w)-[:HAS_CALL]->(k))
WITH w
UNWIND $steps AS s
MERGE (st:Step {id: s.id})
SET st += s.props
MERGE (w)-[:HAS_STEP]->(st)
FOREACH (_ IN CASE WHEN s.parent IS NULL THEN [1] ELSE [] END | MERGE (w)-[:FIRST_STEP]->(st))
WITH st, s
CALL (st, s) {
  MATCH (prev:Step {id: s.parent})
  MERGE (prev)-[:NEXT]->(st)
}
CALL (st, s) {
  MATCH (k:Call {id: s.call_id})
  MERGE (st)-[:DECIDED_BY]->(k)
}
CALL (st, s) {
  UNWIND s.at AS node_uid
  MATCH (e:Entity {uid: node_uid})
  MERGE (st)-[:AT]->(e)
}
CALL (st, s) {
  UNWIND s.chose AS node_uid
  MATCH (e:Entity {uid: node_uid})
  MERGE (st)-[:CHOSE]->(e)
}
