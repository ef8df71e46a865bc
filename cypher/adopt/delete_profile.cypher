// Delete an adopted graph's profile node.
// params: graph
// returns: deleted
OPTIONAL MATCH (p:GwGraphProfile {graph: $graph})
DETACH DELETE p
RETURN count(p) AS deleted
