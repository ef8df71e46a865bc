// Every stored embedding of an adopted graph's nodes (preloads the prefilter cache).
// params: graph
// returns: id, embedding
MATCH (n:GwAdopted {gw_graph: $graph})
WHERE n.gw_embedding IS NOT NULL
RETURN elementId(n) AS id, n.gw_embedding AS embedding
