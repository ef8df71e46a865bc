// Listing walks newest first per graph.
// params: none
// returns: none
CREATE INDEX walk_graph_started IF NOT EXISTS FOR (n:Walk) ON (n.graph, n.started_at)
