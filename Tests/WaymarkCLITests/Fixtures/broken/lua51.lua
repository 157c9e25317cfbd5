local plugin = {}

function plugin.did_tap_features(map, features, layer, location)
  local first = unpack(features)
  print(first.place_id)
end

return plugin
