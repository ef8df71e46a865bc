// Option cards for routing candidates: summary and up to 8 relations (to other entities) per entity.
// params: uids
// returns: uid, summary, relations
UNWIND $uids AS u
MATCH (n:Entity {uid: u})
CALL (n) {
  OPTIONAL MATCH (n)-[r]-(m:Entity)
  WITH r, m, startNode(r) = n AS outgoing
  ORDER BY type(r), m.name
  LIMIT 8
  RETURN collect(CASE WHEN r IS NULL THEN null
                      WHEN outgoing THEN '-' + type(r) + '-> ' + m.name
                      ELSE '<-' + type(r) + '- ' + m.name END) AS relations
}
RETURN n.uid AS uid, n.summary AS summary, relations
