// Remove a retracted document from the ledger (and its source when it has no documents left).
// params: key
// returns: none
MATCH (s:Source)-[:HAS_DOCUMENT]->(d:Document {key: $key})
DETACH DELETE d
WITH DISTINCT s
WHERE NOT (s)-[:HAS_DOCUMENT]->()
DELETE s
