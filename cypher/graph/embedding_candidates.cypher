// Entities of a graph with the text fields the embedder reads, paged by uid.
// params: graph, after, limit
// returns: uid, name, type, aliases, summary, embed_hash
MATCH (n:Entity {graph: $graph})
WHERE n.uid > $after
RETURN n.uid AS uid, n.name AS name, n.type AS type, n.aliases AS aliases, n.summary AS summary,
       n.embed_hash AS embed_hash
ORDER BY n.uid
LIMIT $limit
