// One stored walk with its steps (by depth, beam, position), its decision calls (by depth) and its answers (by rank;
// an answer whose entity a re-ingest retracted is still there, as :RetractedEntity).
// Walk ids are unique across graphs: $graph = null finds the walk in any graph, a name only in that graph.
// params: graph, walk_id
// returns: walk, steps, calls, answers
MATCH (w:Walk {id: $walk_id})
WHERE $graph IS NULL OR w.graph = $graph
RETURN w {.*} AS walk,
  COLLECT {
    MATCH (w)-[:HAS_STEP]->(s:Step)
    WITH s ORDER BY s.depth, s.beam, s.seq
    RETURN s {.*}
  } AS steps,
  COLLECT {
    MATCH (w)-[:HAS_CALL]->(c:Call)
    WITH c ORDER BY c.depth, c.id
    RETURN c {.*}
  } AS calls,
  COLLECT {
    MATCH (w)-[r:ANSWERED]->(e)
    WHERE e:Entity OR e:RetractedEntity
    WITH r, e ORDER BY r.rank
    RETURN {id: e.id, name: e.name, type: e.type, rank: r.rank, score: r.score, votes: r.votes,
            terminated_by: r.terminated_by}
  } AS answers
