// How sure the decider was, per chosen relation (STOP counts as its own row), over the kept decision steps of one
// graph's walks: mean confidence, mean probability of the chosen option, and how often.
// Browser: :param graph => 'default'
// params: graph
// returns: relation, direction, decisions, mean_confidence, mean_p, min_p
MATCH (s:Step)
WHERE s.graph = $graph AND s.kind = 'decision' AND s.kept AND s.chosen IS NOT NULL
WITH CASE WHEN s.is_stop THEN 'STOP' ELSE s.chosen_relation END AS relation,
     CASE WHEN s.is_stop THEN '' ELSE s.chosen_direction END AS direction, s
RETURN relation, direction, count(*) AS decisions, avg(s.confidence) AS mean_confidence, avg(s.p) AS mean_p,
       min(s.p) AS min_p
ORDER BY decisions DESC, relation, direction
