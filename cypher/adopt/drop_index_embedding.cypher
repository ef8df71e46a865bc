// Drop the adopt index gw_adopt_embedding (undo, when no adopted node is left).
// params: none
// returns: none
DROP INDEX gw_adopt_embedding IF EXISTS
