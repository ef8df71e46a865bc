// Walks of one graph that ended at a dead end (no move left the start) or on a forced STOP (a kept step had no
// option left and had to stop), newest first, with the steps where that happened.
// Browser: :param graph => 'default'
// params: graph
// returns: walk_id, question, status, stop_reason, answers, dead_ends, forced_stops, stuck_at
MATCH (w:Walk)
WHERE w.graph = $graph
WITH w, COLLECT {
  MATCH (w)-[:HAS_STEP]->(s:Step)
  WHERE s.kind IN ['dead_end', 'forced_stop'] AND (s.kept OR s.kind = 'dead_end')
  RETURN s
} AS stuck
WHERE w.status = 'dead_end' OR size(stuck) > 0
RETURN w.id AS walk_id, w.question AS question, w.status AS status, w.stop_reason AS stop_reason,
       w.answer_names AS answers,
       size([s IN stuck WHERE s.kind = 'dead_end']) AS dead_ends,
       size([s IN stuck WHERE s.kind = 'forced_stop']) AS forced_stops,
       [s IN stuck | s.kind + ' at depth ' + toString(s.depth) + ': ' + coalesce(s.node_names[0], '?')] AS stuck_at
ORDER BY w.started_at DESC, walk_id
