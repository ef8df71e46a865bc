// Store (or replace) an adopted graph's profile as one :GwGraphProfile node.
// params: graph, profile, labels, moves, created_at
// returns: none
MERGE (p:GwGraphProfile {graph: $graph})
SET p.profile = $profile, p.labels = $labels, p.moves = $moves, p.created_at = $created_at
