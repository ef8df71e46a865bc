// Range index for exact-name linking over adopted nodes (graph, lower-cased name).
// params: none
// returns: none
CREATE INDEX gw_adopt_name IF NOT EXISTS FOR (n:GwAdopted) ON (n.gw_graph, n.gw_name_lc)
