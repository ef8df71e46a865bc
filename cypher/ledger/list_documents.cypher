// Every document of a graph with its ledger state.
// params: graph
// returns: source, doc_id, key, content_hash, complete, status, rows, ingested_at
MATCH (d:Document {graph: $graph})
RETURN d.source AS source, d.doc_id AS doc_id, d.key AS key, d.content_hash AS content_hash,
       d.complete AS complete, d.status AS status, d.rows AS rows, d.ingested_at AS ingested_at
ORDER BY source, doc_id
