// Entities are unique by uid = '<graph>:<id>'.
// params: none
// returns: none
CREATE CONSTRAINT entity_uid IF NOT EXISTS FOR (n:Entity) REQUIRE n.uid IS UNIQUE
