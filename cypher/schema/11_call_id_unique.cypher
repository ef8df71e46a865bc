// Stored decision calls.
// params: none
// returns: none
CREATE CONSTRAINT call_id IF NOT EXISTS FOR (n:Call) REQUIRE n.id IS UNIQUE
