-- Found only by the `checks` task's pattern (^check_), not by *_spec.lua.
describe("checks", function()
  it("are found by the pattern", function() assert(true) end)
end)
