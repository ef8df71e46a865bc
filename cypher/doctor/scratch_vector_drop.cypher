// Doctor: remove the scratch nodes (the index is left for the next run; it is tiny).
// params: token
// returns: none
MATCH (n:GwDoctorScratch {token: $token}) DELETE n
