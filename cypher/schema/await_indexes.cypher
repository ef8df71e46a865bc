// Wait until every index is online (after init or after a bulk load).
// params: seconds
// returns: none
CALL db.awaitIndexes($seconds)
