// Delete a document's chunks (with their FROM_CHUNK and NEXT_CHUNK links) and drop their keys from the
// `chunks` lists of the graph's relationships.
// params: graph, doc
// returns: deleted
MATCH (c:Chunk)
WHERE c.key STARTS WITH $doc + '#' AND c.document = $doc AND c.graph = $graph
WITH collect(c) AS chunks, collect(c.key) AS keys
CALL (keys) {
  MATCH (:Entity {graph: $graph})-[r]->(:Entity)
  WHERE any(k IN r.chunks WHERE k IN keys)
  SET r.chunks = [k IN r.chunks WHERE NOT k IN keys]
}
FOREACH (c IN chunks | DETACH DELETE c)
RETURN size(keys) AS deleted
