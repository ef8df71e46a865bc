// Ingest ledger: a document's stored segments, by document key.
// params: none
// returns: none
CREATE INDEX docsegment_doc IF NOT EXISTS FOR (n:DocSegment) ON (n.doc)
