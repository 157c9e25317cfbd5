-- Input from teardown is refused too.
return { teardown = function(map) map:pan{ x = 100, y = 0 } end }
