-- A small multiset library written as libraries meant for Lua 5.1 to 5.4 are: compatibility
-- locals read names that Lua 5.4 no longer has.
local unpack = unpack or table.unpack
local pow = math.pow or function(x, y) return x ^ y end
local getn = table.getn or function(t) return #t end

local tally = {}
local Bag = {}
Bag.__index = Bag
Bag.__metatable = "tally.Bag"

function tally.new(...)
  local bag = setmetatable({ counts = {}, size = 0 }, Bag)
  for _, item in ipairs({ ... }) do bag:add(item) end
  return bag
end

function Bag:add(item, times)
  times = times or 1
  if type(times) ~= "number" or times < 1 then error("times must be a positive number", 2) end
  self.counts[item] = (self.counts[item] or 0) + times
  self.size = self.size + times
  return self
end

function Bag:count(item)
  return self.counts[item] or 0
end

function Bag:items()
  local list = {}
  for item in pairs(self.counts) do list[#list + 1] = item end
  table.sort(list, function(a, b) return tostring(a) < tostring(b) end)
  return unpack(list)
end

function Bag:squares()
  local total = 0
  for _, n in pairs(self.counts) do total = total + pow(n, 2) end
  return total
end

function tally.length(list)
  return getn(list)
end

return tally
