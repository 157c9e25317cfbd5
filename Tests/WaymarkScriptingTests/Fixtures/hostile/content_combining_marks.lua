-- 4,000 characters of 3,000 combining marks each: few characters, 24 MB of text to lay
-- out. Text is measured in bytes, so it is refused before layout.
local cluster = "a" .. string.rep("\u{0301}", 3000)
local text = string.rep(cluster, 4000)
return { marker_info_window = function(map, marker) return { text = text } end }
