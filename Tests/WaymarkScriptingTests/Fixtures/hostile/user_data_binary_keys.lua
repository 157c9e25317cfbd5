-- user_data keys that are not UTF-8 keep their bytes: no two collapse into one.
return { did_tap_marker = function(map, marker)
  marker.user_data = { ["\xff"] = 1, ["\xfe"] = 2, ["\xff\xfe"] = 3 }
end }
