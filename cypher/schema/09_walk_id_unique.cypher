// Stored walks.
// params: none
// returns: none
CREATE CONSTRAINT walk_id IF NOT EXISTS FOR (n:Walk) REQUIRE n.id IS UNIQUE
