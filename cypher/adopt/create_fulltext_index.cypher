// Fulltext index over adopted nodes' names (eventually consistent, like entity_names).
// params: none
// returns: none
CREATE FULLTEXT INDEX gw_adopt_names IF NOT EXISTS FOR (n:GwAdopted) ON EACH [n.gw_name] OPTIONS {indexConfig: {`fulltext.eventually_consistent`: true}}
