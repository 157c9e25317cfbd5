-- A custom assertion, registered through require("luassert") and require("say").
local say = require("say")
local assert = require("luassert")

local function even(_, arguments)
  return type(arguments[1]) == "number" and arguments[1] % 2 == 0
end

say:set("assertion.even.positive", "Expected %s to be even")
say:set("assertion.even.negative", "Expected %s not to be even")
assert:register("assertion", "even", even, "assertion.even.positive", "assertion.even.negative")

return even
