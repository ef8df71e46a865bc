// Adopt one batch: the namespace label and gw_ properties on user nodes by element id. Never touches another
// adopted graph's nodes or graphwalk's own; user labels and properties are left as they are.
// params: rows, graph, managed
// returns: n
UNWIND $rows AS row
MATCH (n)
WHERE elementId(n) = row.id AND none(l IN labels(n) WHERE l IN $managed)
  AND coalesce(n.gw_graph, $graph) = $graph
SET n:GwAdopted, n.gw_graph = $graph, n.gw_name = row.name, n.gw_name_lc = row.name_lc, n.gw_type = row.type,
    n.gw_hash = row.hash
RETURN count(n) AS n
