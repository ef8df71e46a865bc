// Store embeddings (as float32 vectors, so the vector index picks them up) with the hash of the text they encode.
// The vectors come as one matrix ($vectors, row i for $uids[i]), not a list of rows: the driver writes every
// parameter's repr into its debug line whether or not debug logging is on, and a large matrix's repr is a summary
// where 2,048 vectors as lists of floats cost 0.4 s of client CPU per write (graph/embeddings.vector_params, which
// sends lists of floats for a write too small for NumPy to summarise).
// params: uids, vectors, hashes
// returns: n
UNWIND range(0, size($uids) - 1) AS i
MATCH (n:Entity {uid: $uids[i]})
CALL db.create.setNodeVectorProperty(n, 'embedding', $vectors[i])
SET n.embed_hash = $hashes[i]
RETURN count(n) AS n
