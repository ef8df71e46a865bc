// Ingest ledger: one :Document per graph, source and document id.
// params: none
// returns: none
CREATE CONSTRAINT document_key IF NOT EXISTS FOR (n:Document) REQUIRE n.key IS UNIQUE
