// Entities of a graph by id, with their degree (used to resolve --start ids and rank linking candidates).
// Degrees count data relationships only: trace and provenance links are subtracted (O(1) degree look-ups).
// Each uid is built by graph/identity.py.
// params: uids
// returns: id, name, type, degree
UNWIND $uids AS uid
MATCH (n:Entity {uid: uid})
RETURN n.id AS id, n.name AS name, n.type AS type, (COUNT { (n)--() } - COUNT { (n)-[:AT|CHOSE|ANSWERED|STARTED_AT|FROM_CHUNK]-() }) AS degree
