// Fulltext over names and aliases for entity search. Eventually consistent: Lucene updates leave the commit path,
// which keeps bulk loads fast; a search right after a write may lag by a moment (schema/await_indexes waits).
// params: none
// returns: none
CREATE FULLTEXT INDEX entity_names IF NOT EXISTS FOR (n:Entity) ON EACH [n.name, n.aliases_text]
OPTIONS {indexConfig: {`fulltext.eventually_consistent`: true}}
