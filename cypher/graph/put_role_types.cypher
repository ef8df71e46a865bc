// Record (or replace) the node types inferred for a graph loaded without them (learned/role_types.py): one
// :GwRoleTypes node per graph, the types and type links as JSON, with the entity and relationship counts of the
// graph they were read from and the inference's version (get_role_types compares them with the graph's counts
// and the code's version now).
// params: graph, role_types, type_links, entities, relationships, version, inferred_at
// returns: graph
MERGE (t:GwRoleTypes {graph: $graph})
SET t.role_types = $role_types, t.type_links = $type_links, t.entities = $entities,
    t.relationships = $relationships, t.version = $version, t.inferred_at = $inferred_at
RETURN t.graph AS graph
