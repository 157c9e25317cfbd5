-- Google's "Fit bounds" sample (scenario S4): a long press adds a marker titled with its
-- coordinate.
---@type Plugin
local plugin = { name = "fit_bounds" }

function plugin.did_long_press_at_coordinate(map, coordinate)
  map:add_marker{
    position = coordinate,
    title = string.format("Marker at: %.6f, %.6f", coordinate.lat, coordinate.lng),
  }
end

return plugin
