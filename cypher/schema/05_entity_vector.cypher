// Vector index over entity embeddings (cosine; $dimensions is the packaged MiniLM's, schema.EMBEDDING_DIMENSIONS).
// params: dimensions
// returns: none
CREATE VECTOR INDEX entity_embedding IF NOT EXISTS FOR (n:Entity) ON n.embedding OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine'}}
