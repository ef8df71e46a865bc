// Create a document's chunks in order: (:Document)-[:HAS_CHUNK]->(:Chunk {key, graph, document, index, text, hash}).
// Each row: {key, index, text, hash, extraction (JSON or null), extraction_key (or null)}; a cached extraction
// carried over from the document's previous version is kept on the new chunk.
// params: rows, graph, doc
// returns: chunks
MATCH (d:Document {key: $doc})
UNWIND $rows AS row
MERGE (c:Chunk {key: row.key})
SET c.graph = $graph, c.document = $doc, c.index = row.index, c.text = row.text, c.hash = row.hash,
    c.extraction = row.extraction, c.extraction_key = row.extraction_key, c.status = 'pending', c.error = null
MERGE (d)-[:HAS_CHUNK]->(c)
RETURN count(c) AS chunks
