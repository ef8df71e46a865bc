// Remove one document from the provenance of every relationship of a graph; delete those left without any.
// params: graph, doc
// returns: none
MATCH (:Entity {graph: $graph})-[r]->(:Entity)
WHERE $doc IN r.sources
CALL (r) {
  SET r.sources = [s IN r.sources WHERE s <> $doc]
  WITH r WHERE size(r.sources) = 0
  DELETE r
} IN TRANSACTIONS OF 10000 ROWS
