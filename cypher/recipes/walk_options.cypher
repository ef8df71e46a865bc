// What one walk was offered but did not take, on demand (the default picture is `draw_walk`): per step, the
// :Step (captioned `d1 directed_by ← p .89`), where it stood (AT) and what it chose (CHOSE), a virtual
// relationship from the step to each target of every unchosen option (typed `written_by → .05`; at most 20 targets
// per option, as stored), and one virtual :Pruned node per relation the expander dropped before the decision
// (`release_year → 37 pruned`). One row per step, by depth, beam, position. Nothing is written. On an adopted graph
// (one with a :GwGraphProfile) the user's nodes are found by the element ids the trace keeps, linked virtually.
// Browser: :param walkId => 'the-walk-id'   (ids: `gw-neo4j walks list`; null: the latest walk), then run this.
// params: walkId
// returns: depth, beam, caption, step, stood_on, chose, offered, pruned
CALL () {
  MATCH (w:Walk {id: $walkId})
  RETURN w
  UNION
  MATCH (w:Walk)
  WHERE $walkId IS NULL
  WITH w ORDER BY w.started_at DESC LIMIT 1
  RETURN w
}
MATCH (w)-[:HAS_STEP]->(s:Step)
CALL (w, s) {
  WITH w, s, apoc.convert.fromJsonList(s.options) AS options
  UNWIND range(0, size(options) - 1) AS i
  WITH w, s, options[i] AS o, i
  WHERE NOT o.is_stop AND o.label <> coalesce(s.chosen, '')
  UNWIND o.target_ids AS target_id
  CALL (w, target_id) {
    MATCH (t:Entity {uid: w.graph + ':' + target_id})
    RETURN t
    UNION
    MATCH (t)
    WHERE EXISTS { (:GwGraphProfile {graph: w.graph}) } AND elementId(t) = target_id AND NOT t:Entity
    RETURN t
  }
  WITH s, o, i, t ORDER BY i, coalesce(t.name, t.gw_name), elementId(t)
  RETURN collect(apoc.path.create(s, [apoc.create.vRelationship(s,
           coalesce(s.option_captions[i], o.relation),
           {label: o.label, relation: o.relation, direction: o.direction, p: s.probs[i], count: o.count}, t)]))
         AS offered
}
CALL (s) {
  UNWIND coalesce(s.pruned_captions, []) AS caption
  WITH s, caption, apoc.create.vNode(['Pruned'], {caption: caption, step_id: s.id}) AS n
  RETURN collect(apoc.path.create(s, [apoc.create.vRelationship(s, 'PRUNED', {}, n)])) AS pruned
}
CALL (w, s) {
  CALL (w, s) {
    MATCH p = (s)-[:AT]->(:Entity)
    RETURN p
    UNION
    UNWIND CASE WHEN EXISTS { (:GwGraphProfile {graph: w.graph}) } THEN s.node_ids ELSE [] END AS id
    MATCH (a)
    WHERE elementId(a) = id AND NOT a:Entity
    RETURN apoc.path.create(s, [apoc.create.vRelationship(s, 'AT', {}, a)]) AS p
  }
  RETURN collect(p) AS stood_on
}
CALL (w, s) {
  CALL (w, s) {
    MATCH p = (s)-[:CHOSE]->(:Entity)
    RETURN p
    UNION
    UNWIND CASE WHEN EXISTS { (:GwGraphProfile {graph: w.graph}) } THEN s.chosen_target_ids ELSE [] END AS id
    MATCH (b)
    WHERE elementId(b) = id AND NOT b:Entity
    RETURN apoc.path.create(s, [apoc.create.vRelationship(s, 'CHOSE', {}, b)]) AS p
  }
  RETURN collect(p) AS chose
}
RETURN s.depth AS depth, s.beam AS beam, s.caption AS caption, s AS step, stood_on, chose, offered, pruned
ORDER BY depth, beam, s.seq
