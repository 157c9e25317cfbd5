-- A guided tour: chains camera animations through a list of stops, each started from the
-- previous one's completion, and selects the stop's marker on arrival. A gesture interrupts
-- the tour (the completion reports finished = false), like a person taking over.
---@type Plugin
local plugin = { name = "guided_tour" }
local stops = {}

local function visit(map, index)
  local stop = stops[index]
  if not stop then
    print("tour finished")
    return
  end
  map:animate({ target = stop.position, zoom = 13, bearing = 30 * index, tilt = 25 }, {
    duration = 2,
    on_complete = function(finished)
      if not finished then
        print("tour interrupted at stop " .. index)
        return
      end
      map.selected_marker = stop
      map:after(1, function() visit(map, index + 1) end)
    end,
  })
end

-- Tapping the "start" marker begins the tour through the markers whose user_data has a
-- tour number, in that order.
function plugin.did_tap_marker(map, marker)
  if marker.id ~= "start" then return nil end
  stops = {}
  for _, candidate in ipairs(map:markers()) do
    local data = candidate.user_data
    if type(data) == "table" and data.tour then stops[data.tour] = candidate end
  end
  visit(map, 1)
  return true
end

return plugin
