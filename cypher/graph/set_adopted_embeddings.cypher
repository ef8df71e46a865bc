// Store adopted nodes' embeddings in the namespaced gw_embedding property (float32, for gw_adopt_embedding) with
// the hash of the text they encode. Only gw_ properties are written. $vectors is one matrix, row i for the node
// whose element id is $uids[i] (why: graph/set_embeddings).
// params: graph, uids, vectors, hashes
// returns: n
UNWIND range(0, size($uids) - 1) AS i
MATCH (n)
WHERE elementId(n) = $uids[i] AND n.gw_graph = $graph
CALL db.create.setNodeVectorProperty(n, 'gw_embedding', $vectors[i])
SET n.gw_embed_hash = $hashes[i]
RETURN count(n) AS n
