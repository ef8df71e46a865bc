// Remove a retracted document from the ledger with its stored segments (and its source when it has no documents
// left).
// params: key
// returns: none
MATCH (s:Source)-[:HAS_DOCUMENT]->(d:Document {key: $key})
OPTIONAL MATCH (seg:DocSegment {doc: $key})
DELETE seg
WITH DISTINCT s, d
DETACH DELETE d
WITH DISTINCT s
WHERE NOT (s)-[:HAS_DOCUMENT]->()
DELETE s
