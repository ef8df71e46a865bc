// The ledger entry of one document (absent when never ingested).
// params: key
// returns: key, content_hash, complete, batches_done, batch_size, rows, skipped, status, segments, manifest
MATCH (d:Document {key: $key})
RETURN d.key AS key, d.content_hash AS content_hash, d.complete AS complete, d.batches_done AS batches_done,
       d.batch_size AS batch_size, d.rows AS rows, d.skipped AS skipped, d.status AS status,
       d.segments AS segments, d.manifest AS manifest
