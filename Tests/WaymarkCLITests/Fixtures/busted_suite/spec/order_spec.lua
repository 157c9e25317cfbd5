-- Every block and hook of busted 2 in its order; the last case holds the log to the order
-- busted itself gives.
local log = {}
local function add(s) log[#log + 1] = s end

setup(function() add("root setup") end)
teardown(function() add("root teardown") end)

describe("outer", function()
  add("outer body")
  lazy_setup(function() add("outer lazy") end)
  lazy_teardown(function() add("outer lazy down") end)
  before_each(function() add("outer before") end)
  after_each(function() add("outer after") end)

  context("inner", function()
    add("inner body")
    strict_setup(function() add("inner setup") end)
    strict_teardown(function() add("inner teardown") end)
    it("one #fast", function()
      add("one")
      finally(function() add("finally one") end)
    end)
    spec("two", function() add("two") end)
    test("three", function() add("three") end)
  end)
end)

insulate("insulated", function()
  it("sets a global", function() leaked = true end)
end)

expose("exposed", function()
  it("sees it gone #fast", function() assert(leaked == nil, "insulate put the globals back") end)
end)

it("ran every block and hook in busted's order", function()
  local expected = table.concat({
    "root setup", "outer body", "inner body", "inner setup",
    "outer lazy", "outer before", "one", "finally one", "outer after",
    "outer before", "two", "outer after",
    "outer before", "three", "outer after",
    "inner teardown", "outer lazy down",
  }, ",")
  local got = table.concat(log, ",")
  assert(got == expected, got)
end)
