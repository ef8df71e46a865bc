// Introspection: per label, the property keys of a sample of its (user) nodes with fill count, distinct values,
// value types and the average length of string values.
// params: labels, managed, sample
// returns: label, sampled, key, filled, distinct, types, avg_len
UNWIND $labels AS label
CALL (label) {
  MATCH (n:$(label))
  WHERE none(l IN labels(n) WHERE l IN $managed)
  WITH n LIMIT $sample
  WITH collect(n) AS nodes
  UNWIND nodes AS n
  UNWIND keys(n) AS key
  WITH size(nodes) AS sampled, key, n[key] AS v
  RETURN sampled, key, count(*) AS filled, count(DISTINCT v) AS distinct,
         collect(DISTINCT valueType(v))[..4] AS types,
         avg(CASE WHEN v IS :: STRING THEN size(v) END) AS avg_len
}
RETURN label, sampled, key, filled, distinct, types, avg_len
ORDER BY label, key
