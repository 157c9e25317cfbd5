-- Malformed content: a misspelt field, and a table mixing list items and fields.
local p = {}
function p.marker_info_window(map, marker)
  if marker.id == "sydney" then return { { text = "Sydney", styel = "title" } } end
  return { "Melbourne", text = "both at once" }
end
return p
