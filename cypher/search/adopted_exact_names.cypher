// Exact (case-insensitive) name look-up over an adopted graph's nodes for many candidate spans (entity linking),
// with degree (uses the gw_adopt_name index).
// params: graph, names
// returns: span, id, name, type, degree
UNWIND $names AS span
MATCH (n:GwAdopted {gw_graph: $graph, gw_name_lc: span})
RETURN span, elementId(n) AS id, n.gw_name AS name, n.gw_type AS type, COUNT { (n)--() } AS degree
