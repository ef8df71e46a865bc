// Relation hops, one round trip per depth for every beam: first the frontier, then the moves out of it.
// The frontier is the nodes of req.node_keys (uids built by graph/identity.py, or adopted, element ids), or with
// req.follow = {relation, direction} the distinct targets of that move from req.node_ids that are not in
// req.exclude, returned as `moved` [id, name, type] rows ordered by name then id. The frontier cap is taken here:
// targets are read lazily (DISTINCT, the visited check, then LIMIT $cap = the largest req.max_frontier + 1 of the
// batch), so a move into a hub reads at most that many of its targets whatever the hub's degree; the first
// req.max_frontier of them in the store's adjacency order are kept and `truncated` says that more were there. Then
// `total` is the move's edge count from Neo4j's stored per-type degrees (apoc.node.degree.in/out, summed over the
// start nodes: the number of targets, visited ones included, for one node of an ingested graph, whose writes
// MERGE one relationship per pair and type; an upper bound otherwise); untruncated, `total` is the exact number
// of distinct unvisited targets read. With req.moves = false the moves are not built (resolve only).
// Moves come from per-(relation, direction) edge counts: dense nodes read their stored per-type degrees, sparse
// ones count their relationship records. A move's sample from its dense nodes is read in one lazy pipeline over
// them (DISTINCT, the visited check, LIMIT $scan), not $scan per node: the moves out of the 119 years of 2,000
// films on the 1M graph read 6k targets for 50 before (79k -> 61k db hits, 93 -> 49 ms best of 7). A frontier of more than $count_nodes nodes has its moves counted on
// $count_nodes of them, evenly spread over its order (by name, then id, for a followed move), so the cost of a depth is bounded by what it
// keeps (the frontier cap) and what it shows, not by the frontier's chains: `counted` says how many nodes were
// read of `frontier_size`, and the caller scales those edge counts to estimates for the whole frontier. Far ends are read only until $scan distinct targets outside the
// visited nodes (req.exclude and the frontier) are found, so a move with at most $scan edges is read whole
// (exact), and a move whose targets are all visited is not offered. The visited check `x IN list` is a hash
// lookup (Neo4j caches a set per list), so it does not grow with the visited set.
// The start nodes are read in one pipeline per request, the native and the adopted lookup each behind its own
// filter, repeated after its collect (an aggregate over no rows still returns one row): a per-key subquery with
// a UNION cost 10-12 ms more for a 2,000-node frontier on the 1M graph (moves out of 2,000 films 40.8 -> 30.3
// ms, follow `starred_actors` from them 67.1 -> 54.8 ms, medians of 15).
// Cost: each node's degree is read once to split the frontier, and the sparse nodes are counted in one flat
// pipeline, not in a subquery per node (a per-row CALL with a UNION cost ~3x the reads themselves: the moves out
// of 2,000 films, 26k relationships, on the 1M graph took 164-245 ms, now 63-77); a dense node's samples come
// first, then the sparse nodes' in frontier order, which changes only which $scan targets a capped move shows.
// A dynamic type `[:$(t)]` is expanded as every relationship of that direction filtered by type, so a side with
// no such edge in the stored degrees is not expanded at all: on a node that stored walks point at (hundreds of
// AT / CHOSE links), every data type was read through all of them (MetaQA after its evals: 848k -> 73k db hits
// for the moves out of Drama's 2,000 films). A followed move skips its start nodes the same way.
// Only data relationships count: trace and provenance links are skipped by type (and a followed move is always
// a data relationship, so its far ends are entities); $bookkeeping lists those types (graph/writes.py).
// The graph's profile ($profile, see walk/expand_entities) decides what is a node and a move: an ingested graph's
// :Entity nodes by id, or an adopted graph's user nodes by element id, restricted to the profile's labels and
// relationship types (per-type degree counts stay upper bounds) and named by its name properties, read live.
// A target with several profile labels is of the kind the move most often reaches at that end
// ($profile.ends[relation][direction], most frequent label first), else of its first profile label.
// Each move is [relation, direction, edges, targets, props], props up to 3 [key, value] lists of the profile's
// relationship properties (from sparse nodes); `values` are the frontier's distinct answer-property pairs (an
// ingested entity's attributes all come from claims, so one without claims has none and its properties are not
// read).
// params: requests, graph, scan, dense, cap, count_nodes, profile, bookkeeping
// returns: beam_key, moved, total, truncated, moves, values, frontier_size, counted
UNWIND $requests AS req
CALL (req) {
  WITH req WHERE $profile.native
  UNWIND req.node_keys AS nkey
  MATCH (n:Entity {uid: nkey})
  WITH collect(n) AS start WHERE $profile.native
  RETURN start
  UNION ALL
  WITH req WHERE NOT $profile.native
  UNWIND req.node_keys AS nkey
  MATCH (n) WHERE elementId(n) = nkey
  WITH collect(n) AS start WHERE NOT $profile.native
  RETURN start
}
CALL (req, start) {
  WITH req, start WHERE req.follow IS NULL
  RETURN start AS frontier, null AS moved, size(start) AS total, false AS truncated
  UNION ALL
  WITH req, start WHERE req.follow IS NOT NULL
  CALL (req, start) {
    CALL (req, start) {
      WITH req, start WHERE req.follow.direction = 'out'
      UNWIND start AS n
      WITH req, n WHERE apoc.node.degree.out(n, req.follow.relation) > 0
      MATCH (n)-[:$(req.follow.relation)]->(m)
      RETURN m
      UNION ALL
      WITH req, start WHERE req.follow.direction = 'in'
      UNWIND start AS n
      WITH req, n WHERE apoc.node.degree.in(n, req.follow.relation) > 0
      MATCH (n)<-[:$(req.follow.relation)]-(m)
      RETURN m
    }
    WITH DISTINCT m
    WITH m, CASE WHEN $profile.native THEN m.id ELSE elementId(m) END AS mid
    WHERE NOT mid IN req.exclude AND ($profile.native OR (any(l IN labels(m) WHERE l IN $profile.labels) AND none(l IN labels(m) WHERE l IN $profile.managed) AND coalesce(m.gw_graph, $graph) = $graph))
    WITH m, mid LIMIT $cap
    RETURN collect([m, mid]) AS read
  }
  WITH req, start, read, size(read) > req.max_frontier AS truncated
  UNWIND read[..req.max_frontier] AS pair
  WITH req, start, truncated, pair[0] AS m, pair[1] AS mid
  WITH req, start, truncated, m, mid, CASE WHEN $profile.native THEN null ELSE head([l IN coalesce($profile.ends[req.follow.relation][req.follow.direction], []) WHERE l IN labels(m)] + [l IN $profile.labels WHERE l IN labels(m)]) END AS label
  WITH req, start, truncated, m, mid, label, CASE WHEN $profile.native THEN m.name ELSE head([k IN coalesce($profile.names[label], []) + coalesce($profile.names[head([l IN $profile.labels WHERE l IN labels(m)])], []) WHERE m[k] IS NOT NULL | toString(m[k])]) END AS name
  ORDER BY name, mid
  WITH req, start, truncated, collect(m) AS ms, collect([mid, name, CASE WHEN $profile.native THEN m.type ELSE $profile.types[label] END]) AS moved
  RETURN ms AS frontier, moved,
         CASE WHEN truncated
              THEN reduce(edges = 0, n IN start | edges + CASE req.follow.direction
                     WHEN 'out' THEN apoc.node.degree.out(n, req.follow.relation)
                     ELSE apoc.node.degree.in(n, req.follow.relation) END)
              ELSE size(ms) END AS total,
         truncated
}
CALL (req, frontier) {
  WITH req, frontier WHERE req.moves
  WITH frontier, req.exclude + [f IN frontier | CASE WHEN $profile.native THEN f.id ELSE elementId(f) END] AS excluded
  WITH excluded, CASE WHEN size(frontier) <= $count_nodes THEN frontier
                      ELSE [i IN range(0, $count_nodes - 1) | frontier[i * size(frontier) / $count_nodes]] END AS counted
  WITH excluded, [n IN counted | [n, COUNT { (n)--() } > $dense]] AS split
  CALL (split, excluded) {
    CALL (split, excluded) {
      UNWIND [p IN split WHERE p[1] | p[0]] AS n
      UNWIND [t IN apoc.node.relationship.types(n) WHERE NOT t IN $bookkeeping
              AND ($profile.native OR t IN $profile.moves)] AS relation
      UNWIND [['out', apoc.node.degree.out(n, relation)], ['in', apoc.node.degree.in(n, relation)]] AS side
      WITH n, relation, side[0] AS direction, side[1] AS degree WHERE degree > 0
      WITH relation, direction, sum(degree) AS edges, collect(n) AS nodes
      CALL (relation, direction, nodes, excluded) {
        UNWIND nodes AS n
        CALL (n, relation, direction) {
          WITH n WHERE direction = 'out'
          MATCH (n)-[:$(relation)]->(m)
          RETURN m
          UNION ALL
          WITH n WHERE direction = 'in'
          MATCH (n)<-[:$(relation)]-(m)
          RETURN m
        }
        WITH m WHERE NOT CASE WHEN $profile.native THEN m.id ELSE elementId(m) END IN excluded AND ($profile.native OR (any(l IN labels(m) WHERE l IN $profile.labels) AND none(l IN labels(m) WHERE l IN $profile.managed) AND coalesce(m.gw_graph, $graph) = $graph))
        WITH DISTINCT m LIMIT $scan
        RETURN collect(m) AS sample
      }
      RETURN relation, direction, edges, sample, [] AS props
      UNION ALL
      UNWIND [p IN split WHERE NOT p[1] | p[0]] AS n
      MATCH (n)-[r]-(m)
      WITH n, r, m, type(r) AS relation
      WHERE $profile.native OR (relation IN $profile.moves AND (any(l IN labels(m) WHERE l IN $profile.labels) AND none(l IN labels(m) WHERE l IN $profile.managed) AND coalesce(m.gw_graph, $graph) = $graph))
      WITH relation, CASE WHEN startNode(r) = n THEN 'out' ELSE 'in' END AS direction, m,
           [k IN coalesce($profile.rel_props[relation], []) WHERE r[k] IS NOT NULL | [k, r[k]]] AS rp
      RETURN relation, direction, count(*) AS edges, collect(m) AS sample,
             collect(CASE WHEN size(rp) > 0 THEN rp END)[..3] AS props
    }
    RETURN relation, direction, sum(edges) AS edges, collect(sample) AS samples, collect(props) AS propsets
  }
  WITH excluded, relation, direction, edges, samples, propsets
  WHERE edges > 0 AND NOT relation IN $bookkeeping
  CALL (relation, direction, samples, excluded) {
    UNWIND samples AS sample
    UNWIND sample AS m
    WITH DISTINCT m
    WITH m WHERE CASE WHEN $profile.native THEN m:Entity ELSE (any(l IN labels(m) WHERE l IN $profile.labels) AND none(l IN labels(m) WHERE l IN $profile.managed) AND coalesce(m.gw_graph, $graph) = $graph) END AND NOT CASE WHEN $profile.native THEN m.id ELSE elementId(m) END IN excluded
    WITH m LIMIT $scan
    WITH m, CASE WHEN $profile.native THEN m.id ELSE elementId(m) END AS mid, head([l IN coalesce($profile.ends[relation][direction], []) WHERE l IN labels(m)] + [l IN $profile.labels WHERE l IN labels(m)]) AS label
    WITH m, mid, label, CASE WHEN $profile.native THEN m.name ELSE head([k IN coalesce($profile.names[label], []) + coalesce($profile.names[head([l IN $profile.labels WHERE l IN labels(m)])], []) WHERE m[k] IS NOT NULL | toString(m[k])]) END AS name
    ORDER BY name, mid
    RETURN collect([mid, name, CASE WHEN $profile.native THEN m.type ELSE $profile.types[label] END]) AS targets
  }
  WITH relation, direction, edges, targets, reduce(acc = [], p IN propsets | acc + p)[..3] AS props
  WHERE size(targets) > 0
  RETURN collect([relation, direction, edges, targets, props]) AS moves
}
CALL (req, frontier) {
  WITH frontier WHERE req.moves
  UNWIND frontier AS n
  WITH n WHERE NOT $profile.native OR size(n.claims) > 0
  WITH n, CASE WHEN $profile.native THEN properties(n) END AS p
  UNWIND CASE WHEN $profile.native THEN [k IN keys(p) WHERE NOT k IN $profile.skip_props]
              ELSE coalesce($profile.answers[head([l IN $profile.labels WHERE l IN labels(n)])], []) END AS k
  WITH k, CASE WHEN $profile.native THEN p[k] ELSE n[k] END AS v
  WHERE v IS NOT NULL
  RETURN collect(DISTINCT [k, v]) AS values
}
RETURN req.beam_key AS beam_key, moved, total, truncated, moves, values, size(frontier) AS frontier_size,
       CASE WHEN size(frontier) > $count_nodes THEN $count_nodes ELSE size(frontier) END AS counted
