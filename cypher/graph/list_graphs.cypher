// Every graph in the database with its entity count, largest first (the service's graph list and warm-up):
// graphs our ingest wrote (:Entity nodes) and adopted graphs (their :GwGraphProfile and the nodes adopt marked).
// params: none
// returns: graph, entities
CALL () {
  MATCH (n:Entity)
  WHERE n.graph IS NOT NULL
  RETURN n.graph AS graph, count(*) AS entities
  UNION ALL
  MATCH (p:GwGraphProfile)
  RETURN p.graph AS graph, COUNT { (:GwAdopted {gw_graph: p.graph}) } AS entities
}
RETURN graph, entities
ORDER BY entities DESC, graph
