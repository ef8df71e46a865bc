// The ledger entry of one document (absent when never ingested).
// params: key
// returns: content_hash, complete, batches_done, batch_size, rows, status
MATCH (d:Document {key: $key})
RETURN d.content_hash AS content_hash, d.complete AS complete, d.batches_done AS batches_done,
       d.batch_size AS batch_size, d.rows AS rows, d.status AS status
