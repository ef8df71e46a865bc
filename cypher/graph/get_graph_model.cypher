// The learned decider a graph walks with by default, if one was trained (see put_graph_model).
// params: graph
// returns: path, source, trained_at
MATCH (m:GwGraphModel {graph: $graph})
RETURN m.path AS path, m.source AS source, m.trained_at AS trained_at
