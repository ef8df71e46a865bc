// Store segments of a document's current version (bytes as validated, see ingest/segments.py).
// Each row: {hash, data (bytes)}.
// params: graph, doc, rows
// returns: none
UNWIND $rows AS r
MERGE (s:DocSegment {key: $doc + '#' + r.hash})
SET s.graph = $graph, s.doc = $doc, s.hash = r.hash, s.data = r.data
