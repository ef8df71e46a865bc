// The chunks of a document with their cached extractions (read before a changed document is retracted).
// params: graph, doc
// returns: key, index, hash, extraction, extraction_key, status
MATCH (c:Chunk)
WHERE c.key STARTS WITH $doc + '#' AND c.document = $doc AND c.graph = $graph
RETURN c.key AS key, c.index AS index, c.hash AS hash, c.extraction AS extraction,
       c.extraction_key AS extraction_key, c.status AS status
ORDER BY c.index
