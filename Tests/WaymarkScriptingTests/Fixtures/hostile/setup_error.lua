-- An error in setup: reported; the plugin's handlers still run.
local p = {}
function p.setup(map)
  local config = nil
  print(config.zoom)
end
function p.did_tap_marker(map, marker) print("still here") end
return p
