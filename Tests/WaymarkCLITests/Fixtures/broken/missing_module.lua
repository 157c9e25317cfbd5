local stops = require("lib.stop")
local plugin = {}

function plugin.setup(map)
  map:log(#stops)
end

return plugin
