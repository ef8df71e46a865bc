// Stored embeddings of entities by id (fills the orchestrator's prefilter cache on a miss).
// params: graph, ids
// returns: id, embedding
UNWIND $ids AS eid
MATCH (n:Entity {uid: $graph + ':' + eid})
WHERE n.embedding IS NOT NULL
RETURN eid AS id, n.embedding AS embedding
