-- Passing, failing, erroring and pending cases, and errors outside any case.
describe("outcomes", function()
  it("passes #fast", function() assert(1 + 1 == 2) end)
  it("fails", function() assert(1 + 1 == 3, "arithmetic") end)
  it("errors", function() error({ code = 1 }) end)
  it("is pending inside", function() pending("later") end)
  pending("is declared pending")
end)

describe("a failing setup #broken", function()
  setup(function() error("no database") end)
  it("never runs", function() error("ran") end)
end)

describe("a failing lazy_setup #broken", function()
  lazy_setup(function() error("no cache") end)
  it("never runs either", function() error("ran") end)
  it("nor this", function() error("ran") end)
end)

describe("a failing before_each", function()
  before_each(function() error("no fixture") end)
  it("does not run its body", function() error("ran") end)
end)
