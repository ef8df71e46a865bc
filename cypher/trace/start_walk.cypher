// Open one walk's trace: the :Walk node (status 'running') linked to the start entities found in its graph.
// Idempotent (MERGE by id); start ids without an entity in the graph are kept in start_ids but get no link.
// params: graph, walk
// returns: none
MERGE (w:Walk {id: $walk.id})
SET w += $walk, w.graph = $graph
WITH w
UNWIND $walk.start_ids AS start_id
MATCH (e:Entity {uid: $graph + ':' + start_id})
MERGE (w)-[:STARTED_AT]->(e)
