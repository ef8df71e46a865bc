// The user nodes of one label, to adopt: element id, the other profile labels they carry, the values of the
// given keys, and what the namespace already holds (graph, hash), so a rerun skips what is up to date.
// params: label, keys, managed
// returns: id, labels, values, gw_graph, gw_hash
MATCH (n:$($label))
WHERE none(l IN labels(n) WHERE l IN $managed)
RETURN elementId(n) AS id, labels(n) AS labels, [k IN $keys | n[k]] AS values, n.gw_graph AS gw_graph,
       n.gw_hash AS gw_hash
