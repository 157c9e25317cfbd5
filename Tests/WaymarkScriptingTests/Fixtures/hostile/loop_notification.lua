-- An endless loop in a notification, hidden behind pcall: the watchdog cannot be swallowed.
local p = {}
function p.did_tap_at_coordinate(map, coordinate)
  pcall(function() while true do end end)
  print("after the loop") -- never reached
end
return p
