// Per-graph scans (embedding, retraction, clean-up).
// params: none
// returns: none
CREATE INDEX entity_graph IF NOT EXISTS FOR (n:Entity) ON (n.graph)
