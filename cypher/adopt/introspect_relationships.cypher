// Introspection: relationship types leaving user nodes of the given labels, per pair of endpoint label sets, with
// counts (a node with several of the labels is counted once, under the first of them in the list).
// params: labels, managed
// returns: type, from_labels, to_labels, n
UNWIND $labels AS label
MATCH (a:$(label))-[r]->(b)
WHERE label = head([l IN labels(a) WHERE l IN $labels])
  AND none(l IN labels(a) WHERE l IN $managed) AND none(l IN labels(b) WHERE l IN $managed)
RETURN type(r) AS type, labels(a) AS from_labels, labels(b) AS to_labels, count(*) AS n
ORDER BY n DESC, type
