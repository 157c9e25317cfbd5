-- Endless loops in __close handlers that run while a coroutine is closed (coroutine.close,
-- and coroutine.wrap after an error): they run on the coroutine, which must be watched.
return { did_tap_marker = function(map, marker)
  local co = coroutine.create(function()
    local x <close> = setmetatable({}, { __close = function() while true do end end })
    coroutine.yield()
  end)
  coroutine.resume(co)
  coroutine.close(co)
  return true
end,
did_tap_at_coordinate = function(map)
  local f = coroutine.wrap(function()
    local x <close> = setmetatable({}, { __close = function() while true do end end })
    error("boom")
  end)
  f()
end }
