// Doctor: two scratch nodes with known vectors.
// params: token
// returns: n
UNWIND [{k: 'a', v: [1.0, 0.0, 0.0]}, {k: 'b', v: [0.0, 1.0, 0.0]}] AS row
CREATE (n:GwDoctorScratch {token: $token, k: row.k, v: row.v})
RETURN count(n) AS n
