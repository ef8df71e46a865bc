// Full entity records by uid.
// params: uids
// returns: uid, id, name, type, labels, aliases, sources, claims, conflict_keys, summary
UNWIND $uids AS u
MATCH (n:Entity {uid: u})
RETURN n.uid AS uid, n.id AS id, n.name AS name, n.type AS type, labels(n) AS labels, n.aliases AS aliases,
       n.sources AS sources, n.claims AS claims, n.conflict_keys AS conflict_keys, n.summary AS summary
