// Provenance of entities: (:Entity)-[:FROM_CHUNK {confidence}]->(:Chunk); the highest confidence is kept.
// Each row: {uid, chunk, confidence}.
// params: rows
// returns: linked
UNWIND $rows AS row
MATCH (n:Entity {uid: row.uid})
MATCH (c:Chunk {key: row.chunk})
MERGE (n)-[f:FROM_CHUNK]->(c)
  ON CREATE SET f.confidence = row.confidence
SET f.confidence = CASE WHEN row.confidence > f.confidence THEN row.confidence ELSE f.confidence END
RETURN count(f) AS linked
