// Migrate a legacy ledger entry to its new key and document id (after its elements were re-keyed).
// params: old, new, doc_id
// returns: none
MATCH (d:Document {key: $old})
SET d.key = $new, d.doc_id = $doc_id, d.legacy_key = $old
