// Vector index over adopted nodes' embeddings (MiniLM, 384 dimensions, cosine).
// params: none
// returns: none
CREATE VECTOR INDEX gw_adopt_embedding IF NOT EXISTS FOR (n:GwAdopted) ON n.gw_embedding OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}}
