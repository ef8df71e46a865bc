// Stored embeddings of an adopted graph's nodes by element id (fills the prefilter cache on a miss).
// params: graph, ids
// returns: id, embedding
UNWIND $ids AS eid
MATCH (n)
WHERE elementId(n) = eid AND n.gw_graph = $graph AND n.gw_embedding IS NOT NULL
RETURN eid AS id, n.gw_embedding AS embedding
