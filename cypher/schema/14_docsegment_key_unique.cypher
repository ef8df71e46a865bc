// Ingest ledger: stored segments of structured documents, one per document and segment hash.
// params: none
// returns: none
CREATE CONSTRAINT docsegment_key IF NOT EXISTS FOR (n:DocSegment) REQUIRE n.key IS UNIQUE
