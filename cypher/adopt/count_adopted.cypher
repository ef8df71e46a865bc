// How many nodes carry the adopt namespace (of any graph): the shared indexes go when none is left.
// params: none
// returns: n
MATCH (n:GwAdopted)
RETURN count(n) AS n
