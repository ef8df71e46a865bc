// Close one walk's trace: status, stop reason, totals and answer names as properties, and
// (:Walk)-[:ANSWERED {rank, score, votes, terminated_by}]->(:Entity) for answers found in its graph (a.uid, built by graph/identity.py). Idempotent.
// params: graph, walk_id, props, answers
// returns: none
MERGE (w:Walk {id: $walk_id})
  ON CREATE SET w.graph = $graph
SET w += $props
WITH w
UNWIND $answers AS a
MATCH (e:Entity {uid: a.uid})
MERGE (w)-[r:ANSWERED]->(e)
SET r.rank = a.rank, r.score = a.score, r.votes = a.votes, r.terminated_by = a.terminated_by
