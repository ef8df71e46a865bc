// Entities of a graph by id, with their degree (used to resolve --start ids and rank linking candidates).
// Degrees count data relationships only: trace and provenance links are subtracted (O(1) degree look-ups;
// $bookkeeping lists their types, from graph/writes.py).
// Each uid is built by graph/identity.py.
// params: uids, bookkeeping
// returns: id, name, type, degree
UNWIND $uids AS uid
MATCH (n:Entity {uid: uid})
RETURN n.id AS id, n.name AS name, n.type AS type, (COUNT { (n)--() } - apoc.node.degree(n, apoc.text.join($bookkeeping, '|'))) AS degree
