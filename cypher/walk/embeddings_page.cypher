// One page of a graph's stored embeddings, by uid (preloads the orchestrator's prefilter cache).
// params: graph, after, limit
// returns: uid, id, embedding
MATCH (n:Entity {graph: $graph})
WHERE n.uid > $after AND n.embedding IS NOT NULL
RETURN n.uid AS uid, n.id AS id, n.embedding AS embedding
ORDER BY n.uid
LIMIT $limit
