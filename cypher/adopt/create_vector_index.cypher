// Vector index over adopted nodes' embeddings (cosine; $dimensions is the packaged MiniLM's, schema.EMBEDDING_DIMENSIONS).
// params: dimensions
// returns: none
CREATE VECTOR INDEX gw_adopt_embedding IF NOT EXISTS FOR (n:GwAdopted) ON n.gw_embedding OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine'}}
