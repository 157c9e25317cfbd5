-- issue 7: this trapped as well (padding reaches an Int conversion).
local map = waymark.map{ padding = { top = 1e308 } }
map:settle()
