// Lexical graph chunks.
// params: none
// returns: none
CREATE CONSTRAINT chunk_key IF NOT EXISTS FOR (n:Chunk) REQUIRE n.key IS UNIQUE
