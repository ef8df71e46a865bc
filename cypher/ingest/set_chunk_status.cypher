// Record a chunk's outcome: its extraction (cached JSON, keyed by chunk hash + model + prompt version) and status.
// params: key, extraction, extraction_key, status, error
// returns: none
MATCH (c:Chunk {key: $key})
SET c.extraction = coalesce($extraction, c.extraction), c.extraction_key = coalesce($extraction_key, c.extraction_key),
    c.status = $status, c.error = $error
