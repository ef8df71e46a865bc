// Entities of a graph by id, with their degree (used to resolve --start ids and rank linking candidates).
// Degrees count data relationships only: trace and provenance links are subtracted (O(1) degree look-ups).
// params: graph, ids
// returns: id, name, type, degree
UNWIND $ids AS eid
MATCH (n:Entity {uid: $graph + ':' + eid})
RETURN n.id AS id, n.name AS name, n.type AS type, (COUNT { (n)--() } - COUNT { (n)-[:AT|CHOSE|ANSWERED|STARTED_AT|FROM_CHUNK]-() }) AS degree
