// Decisions where the decider was unsure: no option got probability 0.5 or more. Shows where the walk stood,
// what it was offered with what probability, and what it followed; least sure first.
// Browser: :param graph => 'default'
// params: graph
// returns: walk_id, question, depth, beam, stood_on, max_p, chosen, chosen_relation, kept, options, probs
MATCH (s:Step)
WHERE s.graph = $graph AND s.kind = 'decision' AND size(s.probs) > 0
WITH s, reduce(m = 0.0, x IN s.probs | CASE WHEN x > m THEN x ELSE m END) AS max_p
WHERE max_p < 0.5
MATCH (w:Walk {id: s.walk_id})
RETURN w.id AS walk_id, w.question AS question, s.depth AS depth, s.beam AS beam, s.node_names AS stood_on,
       max_p, s.chosen AS chosen, s.chosen_relation AS chosen_relation, s.kept AS kept,
       [i IN range(0, size(s.option_labels) - 1) |
        s.option_labels[i] + CASE WHEN s.option_relations[i] = '' THEN '' ELSE ' ' + s.option_relations[i] END]
         AS options,
       s.probs AS probs
ORDER BY max_p, walk_id, depth, beam
