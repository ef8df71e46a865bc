// The stored bytes of some segments of a document (the parts of its last version that a re-ingest replaces).
// params: doc, hashes
// returns: hash, data
UNWIND $hashes AS h
MATCH (s:DocSegment {key: $doc + '#' + h})
RETURN s.hash AS hash, s.data AS data
