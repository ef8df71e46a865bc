// Record that batch number $done (1-based count) of a document is written; runs in the batch's own transaction.
// params: key, done
// returns: none
MATCH (d:Document {key: $key}) SET d.batches_done = $done
