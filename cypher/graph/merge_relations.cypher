// Merge a batch of typed relationships between entities of one graph, with provenance.
// Each row: {src, dst, type, id} (src/dst are entity uids; type was validated before it got here).
// params: rows, doc, now, run, confidence
// returns: created, updated, unchanged
UNWIND $rows AS r
MATCH (a:Entity {uid: r.src})
MATCH (b:Entity {uid: r.dst})
MERGE (a)-[x:$(r.type)]->(b)
  ON CREATE SET x.id = r.id, x.sources = [], x.created_at = $now, x.created_run = $run, x.confidence = $confidence
WITH x, $doc IN x.sources AS had_doc, x.created_run = $run AS this_run
WITH x, had_doc, this_run AND NOT had_doc AS created
SET x.sources = CASE WHEN had_doc THEN x.sources ELSE x.sources + $doc END,
    x.confidence = CASE WHEN had_doc THEN x.confidence ELSE CASE WHEN $confidence > x.confidence THEN $confidence ELSE x.confidence END END,
    x.updated_at = CASE WHEN had_doc THEN x.updated_at ELSE $now END
RETURN sum(CASE WHEN created THEN 1 ELSE 0 END) AS created,
       sum(CASE WHEN NOT created AND NOT had_doc THEN 1 ELSE 0 END) AS updated,
       sum(CASE WHEN had_doc THEN 1 ELSE 0 END) AS unchanged
