// Migrate a legacy document key in relationship provenance (batched; idempotent).
// params: graph, old, new
// returns: none
MATCH (:Entity {graph: $graph})-[r]->(:Entity)
WHERE $old IN r.sources
CALL (r) {
  SET r.sources = [s IN r.sources | CASE WHEN s = $old THEN $new ELSE s END]
} IN TRANSACTIONS OF 10000 ROWS
