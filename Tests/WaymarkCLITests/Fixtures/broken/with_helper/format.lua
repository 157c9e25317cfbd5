local format = {}

function format.label(stop)
  return stop.name .. " (" .. stop.minutes .. " min)"
end

return format
