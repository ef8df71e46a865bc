// Drop the adopt index gw_adopt_name (undo, when no adopted node is left).
// params: none
// returns: none
DROP INDEX gw_adopt_name IF EXISTS
