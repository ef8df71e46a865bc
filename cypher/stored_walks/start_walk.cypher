// Open one walk's trace: the :Walk node (status 'running') linked to the start entities found in its graph.
// Idempotent (MERGE by id); start ids without an entity in the graph are kept in start_ids but get no link.
// start_uids are the start entities' uids (graph/identity.py).
// params: graph, walk, start_uids
// returns: none
MERGE (w:Walk {id: $walk.id})
SET w += $walk, w.graph = $graph
WITH w
UNWIND $start_uids AS start_uid
MATCH (e:Entity {uid: start_uid})
MERGE (w)-[:STARTED_AT]->(e)
