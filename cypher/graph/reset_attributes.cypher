// Rewrite attributes after a retraction: new claims, values and conflict keys; drop keys left without claims.
// Each row: {uid, claims, values (map), remove (list of keys), conflict_keys}.
// params: rows
// returns: n
UNWIND $rows AS r
MATCH (n:Entity {uid: r.uid})
SET n.claims = r.claims, n.conflict_keys = r.conflict_keys
SET n += r.values
WITH n, r
CALL apoc.create.removeProperties(n, r.remove) YIELD node
RETURN count(node) AS n
