local plugin = {}

function plugin.setup(map)
  package.path = "./?.lua;" .. package.path
end

return plugin
