-- plugins/stores/stores.lua: closed stores veto the tap; open ones get a window that says until
-- when they are open, and warns when closing time is near (the project's settings say how near).
local opening_hours = require("opening_hours")

---@type Plugin
local plugin = { name = "stores", closing_soon = 30 }

function plugin.setup(_, settings)
  plugin.closing_soon = settings and settings.closing_soon_minutes or 30
end

-- A store's hours are its user_data; a suburb's marker has none and keeps the default window.
local function hours_of(marker)
  local data = marker.user_data
  return type(data) == "table" and data.opens and data or nil
end

function plugin.did_tap_marker(_, marker)
  local hours = hours_of(marker)
  if hours and not opening_hours.is_open(hours, os.time()) then
    print(string.format("%s is closed at %s (open %s-%s)", marker.title, os.date("%H:%M"), hours.opens, hours.closes))
    return true
  end
end

function plugin.marker_info_window(_, marker)
  local hours = hours_of(marker)
  if not hours then return nil end
  local left = opening_hours.minutes(hours.closes) - opening_hours.minute_of_day(os.time())
  local line = left <= plugin.closing_soon and ("Closing soon: " .. hours.closes) or ("Open until " .. hours.closes)
  return {
    { text = marker.title, style = "title" },
    { text = line, style = "caption" },
  }
end

return plugin
