local plugin = {}

function plugin.setup(map)
  map:after(function()
    map:log("a second later")
  end, 1)
end

return plugin
