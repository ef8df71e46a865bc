// Exact name look-ups (entity search, linking) are scoped by graph.
// params: none
// returns: none
CREATE INDEX entity_graph_name IF NOT EXISTS FOR (n:Entity) ON (n.graph, n.name_lc)
