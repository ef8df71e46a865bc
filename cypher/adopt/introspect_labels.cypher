// Introspection: every label of the database with its node count, not counting nodes graphwalk manages.
// params: managed
// returns: label, n
MATCH (n)
WHERE none(l IN labels(n) WHERE l IN $managed)
UNWIND labels(n) AS label
RETURN label, count(*) AS n
ORDER BY n DESC, label
