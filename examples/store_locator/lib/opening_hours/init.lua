-- lib/opening_hours/init.lua: `require("opening_hours")` finds it through the project's "lib" root, from
-- the plugin, the scenario and the tests alike. Opening hours are local time in Melbourne:
-- os.date reads the project's clock, not the machine's time zone.
local stringx = require("pl.stringx") -- Penlight, from Debian's /usr/share/lua/5.4

local opening_hours = {}

--- Minutes after midnight of a time of day written "HH:MM" ("07:30" is 450).
function opening_hours.minutes(text)
  local parts = stringx.split(text, ":")
  local hours, minutes = tonumber(parts[1]), tonumber(parts[2])
  if #parts ~= 2 or not hours or not minutes or hours > 24 or minutes > 59 then
    error("not a time of day (HH:MM): " .. tostring(text), 2)
  end
  return hours * 60 + minutes
end

--- Minutes after local midnight at the time `now` (os.time()'s seconds).
function opening_hours.minute_of_day(now)
  local t = os.date("*t", now)
  return t.hour * 60 + t.min
end

--- Whether a store with these hours ({ opens = "HH:MM", closes = "HH:MM" }) is open at `now`.
function opening_hours.is_open(hours, now)
  local minute = opening_hours.minute_of_day(now)
  return minute >= opening_hours.minutes(hours.opens) and minute < opening_hours.minutes(hours.closes)
end

--- The add_marker options of the CSV rows of data/stores.csv: the hours travel as user_data,
--- which the plugin reads when a store is tapped.
function opening_hours.markers(rows)
  local list = {}
  for i, row in ipairs(rows) do
    list[i] = {
      id = row.id,
      position = { lat = tonumber(row.lat), lng = tonumber(row.lng) },
      title = row.name,
      snippet = row.suburb,
      user_data = { opens = row.opens, closes = row.closes },
    }
  end
  return list
end

return opening_hours
