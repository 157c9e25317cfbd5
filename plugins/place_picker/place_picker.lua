-- Overlays and points of interest: names what was tapped, and keeps a count per kind.
---@type Plugin
local plugin = { name = "place_picker" }
plugin.taps = { overlay = 0, poi = 0, map = 0 }

function plugin.did_tap_overlay(map, overlay)
  plugin.taps.overlay = plugin.taps.overlay + 1
  print("tapped the " .. overlay.kind .. " " .. overlay.id)
end

function plugin.did_tap_poi(map, place_id, name, location)
  plugin.taps.poi = plugin.taps.poi + 1
  print("tapped " .. name .. " (" .. place_id .. ")")
end

function plugin.did_tap_at_coordinate(map, coordinate)
  plugin.taps.map = plugin.taps.map + 1
end

return plugin
