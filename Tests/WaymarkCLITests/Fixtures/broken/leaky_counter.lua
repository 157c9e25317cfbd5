local plugin = {}

function plugin.setup(map)
  taps = 0
end

function plugin.did_tap_marker(map, marker)
  taps = taps + 1
  map:log("taps: " .. taps)
end

return plugin
