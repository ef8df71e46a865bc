// Fulltext over names and aliases for entity search.
// params: none
// returns: none
CREATE FULLTEXT INDEX entity_names IF NOT EXISTS FOR (n:Entity) ON EACH [n.name, n.aliases_text]
