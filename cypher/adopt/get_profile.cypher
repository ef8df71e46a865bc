// The stored profile of an adopted graph (JSON).
// params: graph
// returns: profile, created_at
MATCH (p:GwGraphProfile {graph: $graph})
RETURN p.profile AS profile, p.created_at AS created_at
