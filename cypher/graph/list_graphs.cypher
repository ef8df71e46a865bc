// Every graph in the database with its entity count, largest first (the service's graph list and warm-up).
// params: none
// returns: graph, entities
MATCH (n:Entity)
WHERE n.graph IS NOT NULL
RETURN n.graph AS graph, count(*) AS entities
ORDER BY entities DESC, graph
