// The newest walks of every graph (for the Browser guide's list of recent walks).
// params: limit
// returns: walk
MATCH (w:Walk)
RETURN w {.*} AS walk
ORDER BY w.started_at DESC, w.id
LIMIT $limit
