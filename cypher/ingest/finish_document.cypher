// Close a text document: complete, or incomplete when a chunk failed (the next run retries it).
// params: key, status, complete, title, path, format, chunks, failed, error, now
// returns: none
MATCH (d:Document {key: $key})
SET d.status = $status, d.complete = $complete, d.title = $title, d.path = $path, d.format = $format,
    d.rows = $chunks, d.chunks = $chunks, d.failed_chunks = $failed, d.error = $error, d.ingested_at = $now
