// Stored embeddings of entities by id (fills the orchestrator's prefilter cache on a miss).
// Each uid is built by graph/identity.py.
// params: uids
// returns: id, embedding
UNWIND $uids AS uid
MATCH (n:Entity {uid: uid})
WHERE n.embedding IS NOT NULL
RETURN n.id AS id, n.embedding AS embedding
