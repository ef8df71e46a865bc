// Replay one walk in the Browser graph view: the walk, its steps in NEXT order, the entities each step stood on
// (AT) and chose (CHOSE), the decision calls and the answers. One row per step, by depth, beam, position.
// Browser: :param walkId => 'the-walk-id'   (ids: `gw-neo4j trace list`), then run this query.
// params: walkId
// returns: depth, beam, kind, kept, chosen, p, path, stood_on, chose, decided_by, answers
MATCH (w:Walk {id: $walkId})
MATCH path = (w)-[:FIRST_STEP]->(:Step)-[:NEXT*0..]->(s:Step)
OPTIONAL MATCH stood = (s)-[:AT]->(:Entity)
WITH w, s, path, collect(stood) AS stood_on
OPTIONAL MATCH chose = (s)-[:CHOSE]->(:Entity)
WITH w, s, path, stood_on, collect(chose) AS chose
OPTIONAL MATCH decided = (s)-[:DECIDED_BY]->(:Call)
RETURN s.depth AS depth, s.beam AS beam, s.kind AS kind, s.kept AS kept, s.chosen AS chosen, s.p AS p,
       path, stood_on, chose, decided AS decided_by,
       COLLECT { MATCH answered = (w)-[:ANSWERED]->(:Entity) RETURN answered } AS answers
ORDER BY depth, beam, s.seq
