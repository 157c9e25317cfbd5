-- Google's "Marker layer" sample (scenario S3) as a plugin.
--
-- setup adds a flat plane marker and flies it round Amsterdam -> London -> Paris ->
-- Frankfurt for ever: each hop turns the plane to its heading, then animates its position
-- at 50,000 m/s, and the completion starts the next hop. A tap on a marker fades it to
-- half opacity (restoring the one faded before) and is handled; a tap on the map restores it.
---@type Plugin
local plugin = { name = "marker_layer" }

local stops = {
  { lat = 52.310683, lng = 4.765121 },   -- Amsterdam
  { lat = 51.471386, lng = -0.457148 },  -- London
  { lat = 49.01378, lng = 2.5542943 },   -- Paris
  { lat = 50.036194, lng = 8.554519 },   -- Frankfurt
}
local speed = 50000  -- meters per second
local faded

local function radians(degrees) return degrees * math.pi / 180 end

-- Great-circle distance in meters and initial heading in degrees.
local function distance(a, b)
  local dlat, dlng = radians(b.lat - a.lat), radians(b.lng - a.lng)
  local h = math.sin(dlat / 2) ^ 2 + math.cos(radians(a.lat)) * math.cos(radians(b.lat)) * math.sin(dlng / 2) ^ 2
  return 2 * 6378137 * math.asin(math.min(1, math.sqrt(h)))
end

local function heading(a, b)
  local dlng = radians(b.lng - a.lng)
  local y = math.sin(dlng) * math.cos(radians(b.lat))
  local x = math.cos(radians(a.lat)) * math.sin(radians(b.lat)) - math.sin(radians(a.lat)) * math.cos(radians(b.lat)) * math.cos(dlng)
  return (math.deg(math.atan(y, x)) + 360) % 360
end

local function fly(plane, index)
  local from, to = plane.position, stops[index]
  plane.rotation = heading(from, to)
  plane:animate_position(to, {
    duration = distance(from, to) / speed,
    on_complete = function(finished)
      if finished then fly(plane, index % #stops + 1) end
    end,
  })
end

function plugin.setup(map)
  local plane = map:add_marker{
    id = "plane", position = stops[1], flat = true, ground_anchor = { x = 0.5, y = 0.5 },
    icon = { image = "aeroplane", width = 40, height = 40 }, title = "KLM 1001",
  }
  fly(plane, 2)
end

function plugin.did_tap_marker(map, marker)
  if faded then faded.opacity = 1 end
  marker.opacity = 0.5
  faded = marker
  return true
end

function plugin.did_tap_at_coordinate(map, coordinate)
  if faded then faded.opacity = 1 end
  faded = nil
end

return plugin
