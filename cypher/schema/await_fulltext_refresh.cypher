// Wait until eventually consistent fulltext indexes have applied every committed write (after an ingest).
// params: none
// returns: none
CALL db.index.fulltext.awaitEventuallyConsistentIndexRefresh()
