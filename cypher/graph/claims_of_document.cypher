// Entities holding attribute claims from one document (their claims are recomputed in Python on retraction).
// params: graph, doc
// returns: uid, claims
MATCH (n:Entity {graph: $graph})
WHERE any(c IN n.claims WHERE apoc.convert.fromJsonMap(c).source = $doc)
RETURN n.uid AS uid, n.claims AS claims
