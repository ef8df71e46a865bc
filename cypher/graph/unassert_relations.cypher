// A document no longer asserts these relationships: drop it from their provenance, delete those left without any.
// Each row: {src, dst, type, id} (entity uids, the validated type, the relation id).
// params: rows, doc
// returns: unasserted, deleted
UNWIND $rows AS r
MATCH (a:Entity {uid: r.src})-[x:$(r.type)]->(b:Entity {uid: r.dst})
WHERE x.id = r.id AND $doc IN x.sources
SET x.sources = [s IN x.sources WHERE s <> $doc]
WITH x, size(x.sources) = 0 AS orphan
CALL (x, orphan) {
  WITH x WHERE orphan
  DELETE x
}
RETURN count(*) AS unasserted, sum(CASE WHEN orphan THEN 1 ELSE 0 END) AS deleted
