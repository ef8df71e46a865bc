"""The graph model in Neo4j: identity rules and row models, entity/relationship writes, provenance and
claims, the ledger, merges, graph profiles (ingested or adopted), search and stored embeddings."""
