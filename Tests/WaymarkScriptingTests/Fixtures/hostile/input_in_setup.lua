-- Input from setup would re-enter the map's event loop: refused, as inside a callback.
return { setup = function(map) map:tap{ x = 10, y = 10 } end }
