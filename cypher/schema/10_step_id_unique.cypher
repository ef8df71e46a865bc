// Stored walk steps.
// params: none
// returns: none
CREATE CONSTRAINT step_id IF NOT EXISTS FOR (n:Step) REQUIRE n.id IS UNIQUE
