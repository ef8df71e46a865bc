// Ceiling: follow one relation hop for many questions at once. Each row's frontier (row.uids, entity uids) moves
// along the given relation in the given direction ('out' = stored direction); ids in row.exclude are dropped.
// params: rows, graph
// returns: key, ids, names
UNWIND $rows AS row
CALL (row) {
  UNWIND row.uids AS nuid
  MATCH (n:Entity {uid: nuid})-[r]-(m:Entity)
  WHERE type(r) = row.relation AND m.graph = $graph AND NOT m.id IN row.exclude
    AND (row.direction = 'out') = (startNode(r) = n)
  RETURN collect(DISTINCT m.id) AS ids, collect(DISTINCT m.name) AS names
}
RETURN row.key AS key, ids, names
