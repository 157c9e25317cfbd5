return {
  name = "table_handlers",
  did_tap_marker = function(map, marker)
    map:add_markr{ position = marker.position }
    return 1
  end,
}
