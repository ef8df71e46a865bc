// Entity hops: the neighbours of every active beam's node in ONE round trip, as compact rows
// [relation, direction, id, name, type, degree, rel_props], plus the node's own answer properties as [key, value]
// rows. The graph's profile decides what is a node and a move: an ingested graph's :Entity {graph} nodes by id, or
// an adopted graph's user nodes by element id, restricted to the profile's labels and relationship types (names
// are the profile's name properties, read live; rel_props the profile's relationship properties). A neighbour with
// several profile labels is of the kind the relationship type most often reaches at that end ($profile.ends).
// Up to req.limit neighbours are ordered by importance (degree), then relation, direction, name; longer lists
// (hubs) skip the degree count and come ordered by relation, direction, name, because the orchestrator reorders
// them by similarity to the question anyway. Degrees count data relationships only: trace and provenance links
// are subtracted (O(1) degree look-ups; $bookkeeping lists their types, from graph/writes.py). Identical parallel
// relationships collapse into one row. req.node_key is the node's uid (built by graph/identity.py) or, for an
// adopted graph, its element id.
// params: requests, graph, profile, bookkeeping
// returns: beam_key, neighbours, values
UNWIND $requests AS req
CALL (req) {
  MATCH (n:Entity {uid: req.node_key}) WHERE $profile.native RETURN n
  UNION
  MATCH (n) WHERE NOT $profile.native AND elementId(n) = req.node_key RETURN n
}
CALL (n, req) {
  WITH n, req, (COUNT { (n)--() } - apoc.node.degree(n, apoc.text.join($bookkeeping, '|'))) <= req.limit AS small
  MATCH (n)-[r]-(m)
  WHERE (req.direction = 'both' OR (req.direction = 'out') = (startNode(r) = n))
    AND CASE WHEN $profile.native THEN m:Entity AND m.graph = $graph
        ELSE type(r) IN $profile.moves AND any(l IN labels(m) WHERE l IN $profile.labels)
             AND none(l IN labels(m) WHERE l IN $profile.managed) AND coalesce(m.gw_graph, $graph) = $graph END
  WITH n, small, r, m, CASE WHEN $profile.native THEN m.id ELSE elementId(m) END AS mid,
       CASE WHEN startNode(r) = n THEN 'out' ELSE 'in' END AS dir,
       CASE WHEN $profile.native THEN null ELSE head([l IN $profile.labels WHERE l IN labels(m)]) END AS first, req
  WHERE NOT mid IN req.exclude
  WITH n, small, r, type(r) AS rel, m, mid, dir, first
  WITH n, small, r, rel, m, mid, dir, first,
       head([l IN coalesce($profile.ends[rel][dir], []) WHERE l IN labels(m)] + [first]) AS label
  WITH r, rel, mid, dir,
       CASE WHEN $profile.native THEN m.name
            ELSE head([k IN coalesce($profile.names[label], []) + coalesce($profile.names[first], [])
                       WHERE m[k] IS NOT NULL | toString(m[k])]) END AS name,
       CASE WHEN $profile.native THEN m.type ELSE $profile.types[label] END AS type,
       CASE WHEN small THEN (COUNT { (m)--() } - apoc.node.degree(m, apoc.text.join($bookkeeping, '|'))) ELSE 0 END AS degree
  WITH rel, mid, dir, name, type, degree,
       [k IN coalesce($profile.rel_props[rel], []) WHERE r[k] IS NOT NULL | [k, r[k]]] AS rel_props
  ORDER BY degree DESC, rel, dir, name, mid
  RETURN collect(DISTINCT [rel, dir, mid, name, type, degree, rel_props]) AS neighbours
}
RETURN req.beam_key AS beam_key, neighbours,
  CASE WHEN $profile.native THEN [k IN keys(n) WHERE NOT k IN $profile.skip_props | [k, n[k]]]
       ELSE [k IN coalesce($profile.answers[head([l IN $profile.labels WHERE l IN labels(n)])], [])
             WHERE n[k] IS NOT NULL | [k, n[k]]] END AS values
