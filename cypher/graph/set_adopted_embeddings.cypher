// Store adopted nodes' embeddings in the namespaced gw_embedding property (float32, for gw_adopt_embedding) with
// the hash of the text they encode. Only gw_ properties are written.
// params: graph, rows
// returns: n
UNWIND $rows AS r
MATCH (n)
WHERE elementId(n) = r.uid AND n.gw_graph = $graph
CALL db.create.setNodeVectorProperty(n, 'gw_embedding', r.vector)
SET n.gw_embed_hash = r.hash
RETURN count(n) AS n
