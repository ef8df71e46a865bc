// Vector index over entity embeddings (MiniLM, 384 dimensions, cosine).
// params: none
// returns: none
CREATE VECTOR INDEX entity_embedding IF NOT EXISTS FOR (n:Entity) ON n.embedding OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}}
