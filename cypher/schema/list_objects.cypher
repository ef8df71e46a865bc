// Names of every index, constraint-backing indexes included (used to report what init created).
// params: none
// returns: name, state
SHOW INDEXES YIELD name, state RETURN name, state
