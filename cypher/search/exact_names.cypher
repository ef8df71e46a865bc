// Exact (case-insensitive) name look-up for many candidate spans at once (entity linking), with degree.
// Degrees count data relationships only: trace and provenance links are subtracted (O(1) degree look-ups;
// $bookkeeping lists their types, from graph/writes.py).
// params: graph, names, bookkeeping
// returns: span, id, name, type, degree
UNWIND $names AS span
MATCH (n:Entity {graph: $graph, name_lc: span})
RETURN span, n.id AS id, n.name AS name, n.type AS type, (COUNT { (n)--() } - apoc.node.degree(n, apoc.text.join($bookkeeping, '|'))) AS degree
