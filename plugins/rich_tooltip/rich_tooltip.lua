-- A rich tooltip: markers with a rating in user_data get custom contents in the default
-- frame: a title, stars, and a caption, laid out with stacks.
---@type Plugin
local plugin = { name = "rich_tooltip" }

function plugin.marker_info_contents(map, marker)
  local data = marker.user_data
  if type(data) ~= "table" or not data.rating then return nil end
  local stars = string.rep("★", math.floor(data.rating)) .. string.rep("☆", 5 - math.floor(data.rating))
  return {
    vstack = {
      { text = marker.title or marker.id, style = "title" },
      { hstack = { { text = stars, color = "#f9a825" }, { text = string.format("%.1f", data.rating), style = "caption" } }, spacing = 6 },
      { text = data.note or "", style = "caption", max_lines = 2 },
    },
    spacing = 2,
  }
end

return plugin
