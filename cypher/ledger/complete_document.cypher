// Close a document after its last batch.
// params: key, rows, skipped, now
// returns: none
MATCH (d:Document {key: $key})
SET d.complete = true, d.status = 'complete', d.rows = $rows, d.skipped = $skipped, d.ingested_at = $now
