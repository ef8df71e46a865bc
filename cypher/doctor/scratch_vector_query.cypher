// Doctor: nearest scratch node to [0.9, 0.1, 0] must be 'a'.
// params: token
// returns: k, score
CALL db.index.vector.queryNodes('gw_doctor_scratch', 2, [0.9, 0.1, 0.0]) YIELD node, score
WHERE node.token = $token
RETURN node.k AS k, score
ORDER BY score DESC
