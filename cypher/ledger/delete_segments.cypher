// Delete some stored segments of a document (null hashes: all of them).
// params: doc, hashes
// returns: none
MATCH (s:DocSegment {doc: $doc})
WHERE $hashes IS NULL OR s.hash IN $hashes
DELETE s
