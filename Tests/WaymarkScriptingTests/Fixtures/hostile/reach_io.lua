-- Reaching for a file through io: io only writes to the trace.
local p = {}
function p.did_tap_marker(map, marker)
  local f = io.open("/etc/passwd")
  return f ~= nil
end
return p
