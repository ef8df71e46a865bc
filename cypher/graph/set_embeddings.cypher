// Store embeddings (as float32 vectors, so the vector index picks them up) with the hash of the text they encode.
// params: rows
// returns: n
UNWIND $rows AS r
MATCH (n:Entity {uid: r.uid})
CALL db.create.setNodeVectorProperty(n, 'embedding', r.vector)
SET n.embed_hash = r.hash
RETURN count(n) AS n
