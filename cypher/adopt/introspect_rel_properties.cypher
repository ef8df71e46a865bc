// Introspection: per relationship type, the property keys of a sample of its relationships with fill counts.
// params: types, sample
// returns: type, sampled, key, filled
UNWIND $types AS t
CALL (t) {
  MATCH ()-[r:$(t)]->()
  WITH r LIMIT $sample
  WITH collect(r) AS rels
  UNWIND rels AS r
  UNWIND keys(r) AS key
  RETURN size(rels) AS sampled, key, count(*) AS filled
}
RETURN t AS type, sampled, key, filled
ORDER BY type, key
