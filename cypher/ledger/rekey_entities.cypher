// Migrate a legacy document key in entity provenance and claims (batched; idempotent). A claim names its source
// as the JSON text $old_claim ("source": <old key as JSON>), replaced by $new_claim.
// params: graph, old, new, old_claim, new_claim
// returns: none
MATCH (n:Entity {graph: $graph})
WHERE $old IN n.sources
CALL (n) {
  SET n.sources = [s IN n.sources | CASE WHEN s = $old THEN $new ELSE s END],
      n.claims = [c IN coalesce(n.claims, []) | replace(c, $old_claim, $new_claim)]
} IN TRANSACTIONS OF 10000 ROWS
