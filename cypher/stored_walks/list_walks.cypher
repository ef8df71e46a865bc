// The walks of one graph, newest first, optionally only those with one status.
// params: graph, status, limit
// returns: walk
MATCH (w:Walk)
WHERE w.graph = $graph AND ($status IS NULL OR w.status = $status)
RETURN w {.*} AS walk
ORDER BY w.started_at DESC, w.id
LIMIT $limit
