"""Ingest into our namespace of the graph: structured files (:mod:`.parsers` reads triples, CSV and JSON Lines;
:mod:`.structured` writes them), SQL tables (:mod:`.sql`) and text documents (:mod:`.documents`: chunking, LLM
extraction, entity resolution, routing), all through the ledger so a re-ingest changes only what changed."""
