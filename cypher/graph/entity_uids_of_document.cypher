// The uids of every entity of a graph that a document asserts (retraction walks them in chunks).
// params: graph, doc
// returns: uid
MATCH (n:Entity {graph: $graph})
WHERE $doc IN n.sources
RETURN n.uid AS uid
