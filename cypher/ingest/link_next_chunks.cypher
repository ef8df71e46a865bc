// Chain a document's chunks in reading order: (:Chunk)-[:NEXT_CHUNK]->(:Chunk).
// params: doc
// returns: links
MATCH (:Document {key: $doc})-[:HAS_CHUNK]->(c:Chunk)
WITH c ORDER BY c.index
WITH collect(c) AS chunks
UNWIND range(0, size(chunks) - 2) AS i
WITH chunks[i] AS a, chunks[i + 1] AS b
MERGE (a)-[:NEXT_CHUNK]->(b)
RETURN count(*) AS links
