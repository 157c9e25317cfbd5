local node = { text = string.rep("é\u{301}", 40) }
for _ = 1, 30 do node = { vstack = { node, node }, spacing = 1, padding = 1 } end
return node
