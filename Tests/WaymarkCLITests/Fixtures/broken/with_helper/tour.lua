local stops = require("lib.stops")
local format = require("format")
local plugin = {}

function plugin.did_tap_marker(map, marker)
  map:log(format.label(stops[1]))
  return false
end

return plugin
