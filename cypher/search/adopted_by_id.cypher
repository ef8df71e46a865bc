// Nodes of an adopted graph by element id, with their degree (resolves --start ids).
// params: graph, ids
// returns: id, name, type, degree
UNWIND $ids AS eid
MATCH (n:GwAdopted)
WHERE elementId(n) = eid AND n.gw_graph = $graph
RETURN elementId(n) AS id, n.gw_name AS name, n.gw_type AS type, COUNT { (n)--() } AS degree
