// Whether anything of ours carries this graph name (entities, ledger or walks).
// params: graph
// returns: exists
RETURN EXISTS { MATCH (:Entity {graph: $graph}) } OR EXISTS { MATCH (:Document {graph: $graph}) }
       OR EXISTS { MATCH (:Source {graph: $graph}) } OR EXISTS { MATCH (:Walk {graph: $graph}) }
       OR EXISTS { MATCH (:Step {graph: $graph}) } OR EXISTS { MATCH (:Chunk {graph: $graph}) } AS exists
