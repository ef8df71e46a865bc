// Record (or replace) the learned decider a graph walks with by default: one :GwGraphModel node per graph
// holding the artifact directory (written by `gw-neo4j decider train`).
// params: graph, path, source, trained_at
// returns: path
MERGE (m:GwGraphModel {graph: $graph})
SET m.path = $path, m.source = $source, m.trained_at = $trained_at
RETURN m.path AS path
