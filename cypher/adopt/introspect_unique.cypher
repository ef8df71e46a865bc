// Introspection: single-property uniqueness constraints on node labels (a unique property is a good name).
// params: none
// returns: label, key
SHOW CONSTRAINTS YIELD type, entityType, labelsOrTypes, properties
WHERE type IN ['UNIQUENESS', 'NODE_KEY'] AND entityType = 'NODE' AND size(properties) = 1
RETURN labelsOrTypes[0] AS label, properties[0] AS key
