// Document keys of chunks whose document is gone from the ledger (e.g. after `gw-neo4j retract`).
// params: graph
// returns: doc
MATCH (c:Chunk {graph: $graph})
WHERE NOT EXISTS { MATCH (:Document {key: c.document}) }
RETURN DISTINCT c.document AS doc
