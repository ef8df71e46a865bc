// Walkable node and relationship counts of an adopted graph, read from the user's data as a walk sees it: nodes
// carrying one of the profile's labels (each counted once), none of graphwalk's managed labels, not held by another
// adopted graph; relationships of the profile's move types between two such nodes. Nodes created since adoption
// count too (walks reach them), whether or not `adopt --refresh` marked them yet.
// params: graph, profile
// returns: entities, relationships
CALL () {
  UNWIND $profile.labels AS label
  MATCH (n:$(label))
  WHERE label = head([l IN $profile.labels WHERE l IN labels(n)])
    AND none(l IN labels(n) WHERE l IN $profile.managed) AND coalesce(n.gw_graph, $graph) = $graph
  RETURN count(n) AS entities
}
CALL () {
  UNWIND $profile.moves AS type
  MATCH (a)-[r:$(type)]->(b)
  WHERE any(l IN labels(a) WHERE l IN $profile.labels) AND none(l IN labels(a) WHERE l IN $profile.managed)
    AND coalesce(a.gw_graph, $graph) = $graph
    AND any(l IN labels(b) WHERE l IN $profile.labels) AND none(l IN labels(b) WHERE l IN $profile.managed)
    AND coalesce(b.gw_graph, $graph) = $graph
  RETURN count(r) AS relationships
}
RETURN entities, relationships
