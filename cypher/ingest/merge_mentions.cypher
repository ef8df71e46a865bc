// Merge the entities one chunk resolved to, adding the document to their provenance and new aliases.
// Each row: {uid, id, name, name_lc, type (or null), summary (or null), aliases (list)}; one row per uid.
// params: rows, graph, doc, now, run
// returns: created, updated
UNWIND $rows AS e
MERGE (n:Entity {uid: e.uid})
  ON CREATE SET n.graph = $graph, n.id = e.id, n.name = e.name, n.name_lc = e.name_lc, n.aliases = [],
                n.aliases_text = '', n.sources = [], n.confidence = 1.0, n.created_at = $now, n.created_run = $run,
                n.type = e.type, n.conflict_keys = [], n.claims = [], n.summary = e.summary
WITH n, e, $doc IN n.sources AS had_doc, n.created_run = $run AS this_run
WITH n, e, had_doc, this_run AND NOT had_doc AS created
SET n.sources = CASE WHEN had_doc THEN n.sources ELSE n.sources + $doc END,
    n.type = coalesce(n.type, e.type),
    n.summary = coalesce(n.summary, e.summary),
    n.aliases = n.aliases + [a IN e.aliases WHERE NOT a IN n.aliases AND toLower(a) <> n.name_lc],
    n.updated_at = $now
SET n.aliases_text = apoc.text.join(n.aliases, ' | ')
WITH n, e, created
CALL (n, e) {
  WITH n, e WHERE e.type IS NOT NULL AND n.type = e.type
  SET n:$(e.type)
}
RETURN sum(CASE WHEN created THEN 1 ELSE 0 END) AS created,
       sum(CASE WHEN created THEN 0 ELSE 1 END) AS updated
