// Introspection: per relationship type, the property keys of a sample of its relationships between user nodes of
// the given labels (never graphwalk's own: an ingested graph may use the same type, with our provenance keys),
// with fill counts.
// params: types, labels, managed, sample
// returns: type, sampled, key, filled
UNWIND $types AS t
CALL (t) {
  MATCH (a)-[r:$(t)]->(b)
  WHERE any(l IN labels(a) WHERE l IN $labels) AND any(l IN labels(b) WHERE l IN $labels)
    AND none(l IN labels(a) WHERE l IN $managed) AND none(l IN labels(b) WHERE l IN $managed)
  WITH r LIMIT $sample
  WITH collect(r) AS rels
  UNWIND rels AS r
  UNWIND keys(r) AS key
  RETURN size(rels) AS sampled, key, count(*) AS filled
}
RETURN t AS type, sampled, key, filled
ORDER BY type, key
