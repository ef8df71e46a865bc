// Take the write lock of a document inside a transaction and return its stored hash (the optimistic check of a
// re-ingest: the version a diff was computed against must still be the one stored).
// params: key, run
// returns: content_hash
MATCH (d:Document {key: $key})
SET d.locked_by = $run
RETURN d.content_hash AS content_hash
