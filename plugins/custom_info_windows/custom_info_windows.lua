-- Google's "Custom info windows" sample (scenario S2) as a plugin.
--
-- Sydney gets a whole custom window; Brisbane custom contents inside the default frame;
-- Melbourne the default window (bold title, snippet). Closing and long-pressing a window
-- are logged with the marker's title.
---@type Plugin
local plugin = { name = "custom_info_windows" }

function plugin.marker_info_window(map, marker)
  if marker.id == "sydney" then
    return {
      vstack = {
        { text = marker.title, style = "title", color = "#ffffff" },
        { text = marker.snippet, style = "caption", color = "#ffffff" },
        { image = "opera_house", width = 120, height = 40 },
      },
      spacing = 4, padding = 10, background = "#1a73e8", corner_radius = 8,
    }
  end
end

function plugin.marker_info_contents(map, marker)
  if marker.id == "brisbane" then
    return {
      hstack = {
        { image = "sun", width = 32, height = 32 },
        { { text = marker.title, style = "title" }, { text = "Sunny, 28 °C", style = "caption" } },
      },
      spacing = 8,
    }
  end
end

function plugin.did_close_info_window(map, marker)
  print(marker.title .. " closed")
end

function plugin.did_long_press_info_window(map, marker)
  print(marker.title .. " long pressed")
end

return plugin
