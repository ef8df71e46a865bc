// Flag a document whose contribution is being removed (a killed retraction is redone by the next run).
// params: key
// returns: none
MATCH (d:Document {key: $key}) SET d.status = 'retracting', d.complete = false
