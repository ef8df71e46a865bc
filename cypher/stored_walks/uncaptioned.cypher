// One page of stored walks and steps without caption properties (traces written before captions existed), with
// the properties the captions are made from; $graph = null looks in every graph.
// params: graph, limit
// returns: kind, id, props
CALL () {
  MATCH (w:Walk)
  WHERE w.caption IS NULL AND ($graph IS NULL OR w.graph = $graph)
  RETURN 'walk' AS kind, w.id AS id, w {.question} AS props
  LIMIT $limit
  UNION ALL
  MATCH (s:Step)
  WHERE s.caption IS NULL AND ($graph IS NULL OR s.graph = $graph)
  RETURN 'step' AS kind, s.id AS id,
         s {.depth, .beam, .kind, .kept, .chosen, .is_stop, .chosen_relation, .chosen_direction, .p, .probs,
            .option_relations, .option_directions, .pruned, .truncated, .total, .n_chosen_targets} AS props
  LIMIT $limit
}
RETURN kind, id, props
