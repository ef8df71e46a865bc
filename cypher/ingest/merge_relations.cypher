// Merge relationships extracted from one chunk, recording the document in `sources` and the chunk in `chunks`.
// Each row: {src, dst, type, id, chunk, confidence} (type was validated before it got here).
// params: rows, doc, now, run
// returns: created, updated
UNWIND $rows AS r
MATCH (a:Entity {uid: r.src})
MATCH (b:Entity {uid: r.dst})
MERGE (a)-[x:$(r.type)]->(b)
  ON CREATE SET x.id = r.id, x.sources = [], x.chunks = [], x.created_at = $now, x.created_run = $run,
                x.confidence = r.confidence
WITH x, r, x.created_run = $run AND NOT $doc IN x.sources AS created
SET x.sources = CASE WHEN $doc IN x.sources THEN x.sources ELSE x.sources + $doc END,
    x.chunks = CASE WHEN r.chunk IN coalesce(x.chunks, []) THEN x.chunks ELSE coalesce(x.chunks, []) + r.chunk END,
    x.confidence = CASE WHEN r.confidence > x.confidence THEN r.confidence ELSE x.confidence END,
    x.updated_at = $now
RETURN sum(CASE WHEN created THEN 1 ELSE 0 END) AS created,
       sum(CASE WHEN created THEN 0 ELSE 1 END) AS updated
