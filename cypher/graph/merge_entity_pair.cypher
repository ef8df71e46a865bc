// Merge entity $absorb into entity $keep with APOC: relationships are rewired onto $keep, list properties
// (sources, aliases, claims, conflict_keys) are combined, other properties of $keep win.
// params: keep, absorb
// returns: uid
MATCH (k:Entity {uid: $keep}), (a:Entity {uid: $absorb})
WITH k, a, a.name AS absorbed_name, k.claims + a.claims AS claims
CALL apoc.refactor.mergeNodes([k, a], {
  properties: {sources: 'combine', aliases: 'combine', claims: 'combine', conflict_keys: 'combine', `.*`: 'discard'},
  mergeRels: true
}) YIELD node
WITH node, absorbed_name, claims
SET node.sources = apoc.coll.toSet(coalesce(node.sources, [])),
    node.claims = apoc.coll.toSet(claims),
    node.aliases = apoc.coll.toSet([x IN coalesce(node.aliases, []) + absorbed_name WHERE x <> node.name])
SET node.aliases_text = apoc.text.join(node.aliases, ' | ')
RETURN node.uid AS uid
