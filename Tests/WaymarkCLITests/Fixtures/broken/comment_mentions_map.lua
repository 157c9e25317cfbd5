-- A plugin for scripts that call waymark.map{ plugins = { "tour" } }: still a plugin.
local plugin = {}

function plugin.did_tap_marker(map, marker)
  return marker.titel == "Secret"
end

return plugin
