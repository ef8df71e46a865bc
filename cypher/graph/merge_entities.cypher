// Merge a batch of entities of one graph, adding the document to their provenance.
// Each row: {uid, id, name, name_lc, type (or null)}. Created/updated/unchanged are counted per row.
// params: rows, graph, doc, now, run
// returns: created, updated, unchanged
UNWIND $rows AS e
MERGE (n:Entity {uid: e.uid})
  ON CREATE SET n.graph = $graph, n.id = e.id, n.name = e.name, n.name_lc = e.name_lc, n.aliases = [],
                n.aliases_text = '', n.sources = [], n.confidence = 1.0, n.created_at = $now, n.created_run = $run,
                n.type = e.type, n.conflict_keys = [], n.claims = []
WITH n, e, $doc IN n.sources AS had_doc, n.created_run = $run AS this_run
WITH n, e, had_doc, this_run AND NOT had_doc AS created
SET n.sources = CASE WHEN had_doc THEN n.sources ELSE n.sources + $doc END,
    n.type = coalesce(n.type, e.type),
    n.updated_at = CASE WHEN had_doc THEN n.updated_at ELSE $now END
SET n:$(coalesce(e.type, 'Entity'))
RETURN sum(CASE WHEN created THEN 1 ELSE 0 END) AS created,
       sum(CASE WHEN NOT created AND NOT had_doc THEN 1 ELSE 0 END) AS updated,
       sum(CASE WHEN had_doc THEN 1 ELSE 0 END) AS unchanged
