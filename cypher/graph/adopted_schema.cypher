// The walkable kinds and moves of an adopted graph with their counts, read from the user's data as a walk sees
// it: nodes carrying one of the profile's labels (each counted once, under its first profile label), none of
// graphwalk's managed labels, not held by another adopted graph; relationships of the profile's move types between
// two such nodes. Nodes created since adoption count too (walks reach them), whether or not `adopt --refresh`
// marked them yet. Kinds and moves without any are left out; both lists most frequent first.
// params: graph, profile
// returns: types, relations
CALL () {
  UNWIND $profile.labels AS label
  MATCH (n:$(label))
  WHERE label = head([l IN $profile.labels WHERE l IN labels(n)])
    AND none(l IN labels(n) WHERE l IN $profile.managed) AND coalesce(n.gw_graph, $graph) = $graph
  WITH $profile.types[label] AS type, count(n) AS n
  ORDER BY n DESC, type
  RETURN collect([type, n]) AS types
}
CALL () {
  UNWIND $profile.moves AS relation
  MATCH (a)-[r:$(relation)]->(b)
  WHERE any(l IN labels(a) WHERE l IN $profile.labels) AND none(l IN labels(a) WHERE l IN $profile.managed)
    AND coalesce(a.gw_graph, $graph) = $graph
    AND any(l IN labels(b) WHERE l IN $profile.labels) AND none(l IN labels(b) WHERE l IN $profile.managed)
    AND coalesce(b.gw_graph, $graph) = $graph
  WITH relation, count(r) AS n
  ORDER BY n DESC, relation
  RETURN collect([relation, n]) AS relations
}
RETURN types, relations
