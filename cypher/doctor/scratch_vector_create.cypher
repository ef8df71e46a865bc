// Doctor: create a scratch vector index (3 dimensions) to prove vector indexes work on this server.
// params: none
// returns: none
CREATE VECTOR INDEX gw_doctor_scratch IF NOT EXISTS FOR (n:GwDoctorScratch) ON n.v
OPTIONS {indexConfig: {`vector.dimensions`: 3, `vector.similarity_function`: 'cosine'}}
