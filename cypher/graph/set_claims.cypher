// Record attribute claims: every (key, value, source) is kept in n.claims; the first value becomes the property,
// and a different value from another source marks the key as a conflict instead of overwriting it.
// Each row: {uid, key, value, claim} where claim is the JSON text {"key","value","source"}.
// params: rows
// returns: conflicts
UNWIND $rows AS a
MATCH (n:Entity {uid: a.uid})
WITH n, a, n[a.key] AS current
SET n.claims = CASE WHEN a.claim IN n.claims THEN n.claims ELSE n.claims + a.claim END
SET n += CASE WHEN current IS NULL THEN apoc.map.fromPairs([[a.key, a.value]]) ELSE {} END
WITH n, a, current, current IS NOT NULL AND current <> a.value AS clash
SET n.conflict_keys = CASE WHEN clash AND NOT a.key IN n.conflict_keys THEN n.conflict_keys + a.key
                           ELSE n.conflict_keys END
RETURN sum(CASE WHEN clash THEN 1 ELSE 0 END) AS conflicts
