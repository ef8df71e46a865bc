// Merge entity $absorb into entity $keep with APOC: relationships are rewired onto $keep (parallel ones of the
// same type merged), labels united; provenance, aliases and claims are united here; other properties of $keep win.
// params: keep, absorb
// returns: uid
MATCH (k:Entity {uid: $keep}), (a:Entity {uid: $absorb})
WITH k, a,
     apoc.coll.toSet(coalesce(k.sources, []) + coalesce(a.sources, [])) AS sources,
     coalesce(k.claims, []) + [c IN coalesce(a.claims, []) WHERE NOT c IN coalesce(k.claims, [])] AS claims,
     apoc.coll.toSet(coalesce(k.aliases, []) + coalesce(a.aliases, []) + [a.name]) AS aliases
CALL apoc.refactor.mergeNodes([k, a], {properties: 'discard', mergeRels: true}) YIELD node
SET node.sources = sources, node.claims = claims,
    node.aliases = [x IN aliases WHERE x <> node.name]
SET node.aliases_text = apoc.text.join(node.aliases, ' | ')
RETURN node.uid AS uid
