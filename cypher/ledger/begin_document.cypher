// Open (or re-open) a document in the ledger before its batches are written. A new hash restarts the batch count.
// params: graph, source_key, source, key, doc_id, hash, batch_size, now, kind
// returns: batches_done
MERGE (s:Source {key: $source_key})
  ON CREATE SET s.graph = $graph, s.name = $source, s.created_at = $now
MERGE (d:Document {key: $key})
  ON CREATE SET d.graph = $graph, d.source = $source, d.doc_id = $doc_id, d.created_at = $now, d.batches_done = 0
MERGE (s)-[:HAS_DOCUMENT]->(d)
WITH d, d.content_hash = $hash AND d.batch_size = $batch_size AS resumable
SET d.batches_done = CASE WHEN resumable THEN d.batches_done ELSE 0 END,
    d.content_hash = $hash, d.batch_size = $batch_size, d.complete = false, d.status = 'loading',
    d.kind = $kind, d.started_at = $now
RETURN d.batches_done AS batches_done
