// Training from the graph alone, adopted graph: every adopted node of the graph with its outgoing relationships
// of the profile's move types to other adopted nodes of the same graph, in one read (an adopted graph has no
// indexed key to page by; the rows are small: ids, names, types). A node and a far end are named and typed as
// the walk names them: the adopted name (gw_name), the node's adopted kind, and for a far end with several
// profile labels the kind its move reaches most often ($profile.ends, as in walk/relation_moves).
// params: graph, profile
// returns: uid, id, name, type, relation, target, target_name, target_type
MATCH (n:GwAdopted {gw_graph: $graph})
OPTIONAL MATCH (n)-[r]->(m:GwAdopted {gw_graph: $graph})
WHERE type(r) IN $profile.moves
WITH n, r, m,
     head([l IN coalesce($profile.ends[type(r)]['out'], []) WHERE l IN labels(m)]
          + [l IN $profile.labels WHERE l IN labels(m)]) AS label
RETURN elementId(n) AS uid, elementId(n) AS id, n.gw_name AS name, n.gw_type AS type, type(r) AS relation,
       elementId(m) AS target, m.gw_name AS target_name, CASE WHEN m IS NULL THEN null ELSE coalesce($profile.types[label], m.gw_type) END AS target_type
