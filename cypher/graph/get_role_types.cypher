// What a learned decider needs to read a graph loaded without node types (learned/role_types.py): how many of a
// sample of the graph's entities carry a type (one not in $untyped), and the role types stored for it (one
// :GwRoleTypes node per graph, see put_role_types) with the counts of the graph they were inferred from, so a
// reading of an older state of the graph is inferred again.
// params: graph, sample, untyped
// returns: sampled, typed, role_types, type_links, entities, relationships, version
CALL () {
  MATCH (n:Entity {graph: $graph})
  WITH n LIMIT $sample
  RETURN count(n) AS sampled, count(CASE WHEN NOT toLower(n.type) IN $untyped THEN 1 END) AS typed
}
OPTIONAL MATCH (t:GwRoleTypes {graph: $graph})
RETURN sampled, typed, t.role_types AS role_types, t.type_links AS type_links, t.entities AS entities,
       t.relationships AS relationships, t.version AS version
