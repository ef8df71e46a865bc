// Ingest ledger: one :Source per graph and source name.
// params: none
// returns: none
CREATE CONSTRAINT source_key IF NOT EXISTS FOR (n:Source) REQUIRE n.key IS UNIQUE
