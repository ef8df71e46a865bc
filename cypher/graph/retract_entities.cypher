// Remove one document from the provenance of every entity of a graph; delete entities left without any.
// params: graph, doc
// returns: none
MATCH (n:Entity {graph: $graph})
WHERE $doc IN n.sources
CALL (n) {
  SET n.sources = [s IN n.sources WHERE s <> $doc]
  WITH n WHERE size(n.sources) = 0
  DETACH DELETE n
} IN TRANSACTIONS OF 10000 ROWS
