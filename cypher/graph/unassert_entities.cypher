// A document no longer asserts these entities: drop it from their provenance. An entity left without any is
// deleted, unless a stored walk links to it (AT, CHOSE, ANSWERED, STARTED_AT): then its data relationships go,
// its labels are replaced by :RetractedEntity (out of search, indexes and counts; old labels kept in
// retracted_labels) and the trace links stay. Every walk that linked to it is marked (retracted_ids/_names).
// params: uids, doc, now, trace_links
// returns: unasserted, deleted, kept
UNWIND $uids AS u
MATCH (n:Entity {uid: u})
WHERE $doc IN n.sources
SET n.sources = [s IN n.sources WHERE s <> $doc]
WITH n, size(n.sources) = 0 AS orphan
CALL (n, orphan) {
  WITH n WHERE orphan
  WITH n, COLLECT { MATCH (n)<-[l]-(t) WHERE type(l) IN $trace_links RETURN DISTINCT coalesce(t.walk_id, t.id) } AS walks
  CALL (n, walks) {
    UNWIND walks AS wid
    MATCH (w:Walk {id: wid})
    SET w.retracted_ids = CASE WHEN n.id IN coalesce(w.retracted_ids, []) THEN w.retracted_ids
                               ELSE coalesce(w.retracted_ids, []) + n.id END,
        w.retracted_names = CASE WHEN n.id IN coalesce(w.retracted_ids, []) AND n.name IN coalesce(w.retracted_names, [])
                                 THEN w.retracted_names ELSE coalesce(w.retracted_names, []) + n.name END,
        w.data_changed_at = $now
  }
  CALL (n, walks) {
    WITH n WHERE size(walks) > 0
    OPTIONAL MATCH (n)-[r]-()
    WHERE NOT type(r) IN $trace_links
    DELETE r
  }
  CALL (n, walks) {
    WITH n WHERE size(walks) > 0
    SET n.retracted_labels = labels(n), n.retracted_at = $now
    REMOVE n:$(labels(n))
    SET n:RetractedEntity
  }
  CALL (n, walks) {
    WITH n WHERE size(walks) = 0
    DETACH DELETE n
  }
  RETURN size(walks) > 0 AS kept
}
RETURN count(*) AS unasserted, sum(CASE WHEN orphan AND NOT kept THEN 1 ELSE 0 END) AS deleted,
       sum(CASE WHEN kept THEN 1 ELSE 0 END) AS kept
