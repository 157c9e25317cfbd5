-- An error in setup: a failed load. The plugin is not active until its file changes.
local p = {}
function p.setup(map)
  local config = nil
  print(config.zoom)
end
function p.did_tap_marker(map, marker) print("still here") end
return p
