// Steps where the expander pruned options before the decider saw them (hubs over max_neighbors in entity hops, too
// many relation kinds in relation hops), most pruned first: were the right moves ever offered?
// Browser: :param graph => 'default'
// params: graph
// returns: walk_id, question, depth, beam, stood_on, total_count, offered, pruned_count, pruned_share, chosen_relation
MATCH (s:Step)
WHERE s.graph = $graph AND s.pruned_count > 0
MATCH (w:Walk {id: s.walk_id})
RETURN w.id AS walk_id, w.question AS question, s.depth AS depth, s.beam AS beam, s.node_names AS stood_on,
       s.total_count AS total_count, size([r IN s.option_relations WHERE r <> '']) AS offered,
       s.pruned_count AS pruned_count, toFloat(s.pruned_count) / s.total_count AS pruned_share,
       s.chosen_relation AS chosen_relation
ORDER BY pruned_count DESC, pruned_share DESC, walk_id, depth
