// Backfill caption properties on stored walks and steps: each row {id, props}, props only caption properties.
// params: walks, steps
// returns: walks, steps
CALL () {
  UNWIND $walks AS row
  MATCH (w:Walk {id: row.id})
  SET w += row.props
  RETURN count(w) AS walks
}
CALL () {
  UNWIND $steps AS row
  MATCH (s:Step {id: row.id})
  SET s += row.props
  RETURN count(s) AS steps
}
RETURN walks, steps
