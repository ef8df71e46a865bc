"""The graph model in Neo4j: entities, typed relationships, provenance, claims/conflicts, the ledger, merges."""
