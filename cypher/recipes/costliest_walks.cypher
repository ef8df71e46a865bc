// The 25 costliest walks of one graph: by cost in USD (walks without a reported cost last), then by tokens.
// Browser: :param graph => 'default'
// params: graph
// returns: walk_id, question, status, cost_usd, tokens, input_tokens, output_tokens, decision_requests, decision_calls, depths, wall_s
MATCH (w:Walk)
WHERE w.graph = $graph AND w.status <> 'running'
WITH w, coalesce(w.input_tokens, 0) + coalesce(w.output_tokens, 0) AS tokens
RETURN w.id AS walk_id, w.question AS question, w.status AS status, w.cost_usd AS cost_usd, tokens,
       w.input_tokens AS input_tokens, w.output_tokens AS output_tokens,
       w.decision_requests AS decision_requests, w.decision_calls AS decision_calls, w.depths AS depths,
       w.wall_s AS wall_s
ORDER BY w.cost_usd IS NULL, w.cost_usd DESC, tokens DESC, w.started_at DESC
LIMIT 25
