// An adopted graph's nodes with the text the embedder reads (their profile's name and text properties, read
// live from the user's properties) and the hash of what their stored vector encodes.
// params: graph, profile
// returns: id, label, values, embed_hash
MATCH (n:GwAdopted {gw_graph: $graph})
WITH n, head([l IN $profile.labels WHERE l IN labels(n)]) AS label
WHERE label IS NOT NULL
RETURN elementId(n) AS id, label,
       [k IN $profile.names[label] + $profile.texts[label] | n[k]] AS values, n.gw_embed_hash AS embed_hash
