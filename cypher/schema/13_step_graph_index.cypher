// Whole-graph trace recipes scan steps of one graph.
// params: none
// returns: none
CREATE INDEX step_graph IF NOT EXISTS FOR (n:Step) ON (n.graph)
