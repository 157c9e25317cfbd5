local plugin = { name = "self_in_handler", taps = 0 }

function plugin.did_tap_marker(map, marker)
  self.taps = self.taps + 1
end

return plugin
