// Record a document's current version after a complete load or an applied diff: its hash, segment list and
// settings, counts, and complete (the document identity rule it was stored under: path-1).
// params: key, hash, segments, manifest, rows, skipped, now
// returns: none
MATCH (d:Document {key: $key})
SET d.content_hash = $hash, d.segments = $segments, d.manifest = $manifest, d.rows = $rows, d.skipped = $skipped,
    d.complete = true, d.status = 'complete', d.ingested_at = $now, d.identity = 'path-1'
