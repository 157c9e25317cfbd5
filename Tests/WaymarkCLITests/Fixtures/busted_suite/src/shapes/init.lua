-- Found by busted's default lpath (./src/?/init.lua), given its name as `...`.
local name = ...
local shapes = { name = name }

function shapes.area(width, height)
  return width * height
end

function shapes.describe(shape, log)
  log(shape.kind, shapes.area(shape.width, shape.height))
  return shape.kind
end

return shapes
