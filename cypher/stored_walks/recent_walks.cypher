// The newest walks of every graph (for the Browser guide's list of recent walks). A :Walk node without an id,
// graph or status is not one graphwalk stored (another tool's label, or a hand-made node) and is left out.
// params: limit
// returns: walk
MATCH (w:Walk)
WHERE w.id IS NOT NULL AND w.graph IS NOT NULL AND w.status IS NOT NULL
RETURN w {.*} AS walk
ORDER BY w.started_at DESC, w.id
LIMIT $limit
