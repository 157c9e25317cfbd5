import CLuaShims
import Testing

@testable import LuaKit

/// Every state hashes its strings with one fixed seed (string_seed.c), set before the state
/// interns its first string: `pairs` walks string keys in an order the script alone decides,
/// and the strings Lua interned while the state was built (keywords, metamethod names, the
/// memory error's message) still resolve (issue 30).
@Suite struct StringSeedTests {
  /// The keys of a table of 40 string keys, in the order `pairs` walks them.
  static let walk = """
    local t = {}
    for i = 1, 40 do t["key" .. i] = i end
    t.alpha, t.beta, t.gamma, t.delta = 1, 2, 3, 4
    local keys = {}
    for k in pairs(t) do keys[#keys + 1] = k end
    return table.concat(keys, " ")
    """

  static func pairsOrder(in state: LuaState) throws -> String {
    try state.stack.withStackBalance { () throws(LuaError) -> String in
      try state.stack.run(walk, results: 1)
      defer { state.stack.pop() }
      return state.stack.string(at: -1) ?? ""
    }
  }

  @Test func statesMadeAtDifferentAddressesWalkStringKeysInOneOrder() throws {
    let first = try LuaState()
    var others: [LuaState] = []
    for _ in 0..<4 { others.append(try LuaState(memoryLimit: 64 << 20)) }  // other blocks, other addresses
    let order = try Self.pairsOrder(in: first)
    #expect(order.split(separator: " ").count == 44)
    for state in others { #expect(try Self.pairsOrder(in: state) == order) }
  }

  @Test func keywordsAndMetamethodNamesStillResolve() throws {
    let state = try LuaState()
    try state.stack.run(
      """
      local log = {}
      local proxy = setmetatable({}, {
        __index = function(_, k) return "index " .. k end,
        __newindex = function(_, k, v) log[#log + 1] = k .. "=" .. v end,
        __call = function() return "called" end,
        __len = function() return 7 end,
        __eq = function() return true end,
        __concat = function() return "concat" end,
      })
      proxy.x = 1
      local weak = setmetatable({}, { __mode = "k" })
      weak[{}] = true
      collectgarbage()
      collectgarbage()
      local gcKept = tostring(rawequal(getmetatable(setmetatable({}, { __gc = print })).__gc, print))
      do local c <close> = setmetatable({}, { __close = function() log[#log + 1] = "closed" end }) end
      local n = 0
      while true do n = n + 1 if n >= 3 then break end end
      goto done
      ::done::
      local a = setmetatable({}, getmetatable(proxy))
      return table.concat({ proxy.y, log[1], log[2], proxy(), #proxy, tostring(a == proxy),
        proxy .. "", tostring(next(weak) == nil), tostring(n), gcKept }, "|")
      """, results: 1)
    #expect(state.stack.string(at: -1) == "index y|x=1|closed|called|7|true|concat|true|3|true")
  }

  @Test func stringsMadeAtRunTimeAreTheInternedOnes() throws {
    let state = try LuaState()
    try state.stack.run(
      """
      local t = { abc = 1, __index = 2, ["not enough memory"] = 3 }
      local long = ("x"):rep(100)
      local u = { [long] = 4 }
      return tostring(t["ab" .. "c"]), tostring(t[("__IND"):lower() .. "ex"]),
        tostring(t[string.format("%s %s", "not enough", "memory")]), tostring(u[("x"):rep(50) .. ("x"):rep(50)]),
        tostring(("ab" .. "c") == "abc")
      """, results: 5)
    #expect((1...5).map { state.stack.string(at: Int32($0)) } == ["1", "2", "3", "4", "true"])
  }

  @Test(arguments: [
    ("$LuaVersion: Lua 5.4.0  Copyright (C) 1994-2020 Lua.org, PUC-Rio $", true),
    ("$LuaVersion: Lua 5.4.4  Copyright (C) 1994-2022 Lua.org, PUC-Rio $", true),
    ("$LuaVersion: Lua 5.4.8  Copyright (C) 1994-2025 Lua.org, PUC-Rio $", true),
    ("$LuaVersion: Lua 5.4.9  Copyright (C) 1994-2025 Lua.org, PUC-Rio $", false),
    ("$LuaVersion: Lua 5.4.10  Copyright $", false),
    ("$LuaVersion: Lua 5.5.0  Copyright (C) 1994-2025 Lua.org, PUC-Rio $", false),
    ("$LuaVersion: Lua 5.3.6  Copyright (C) 1994-2020 Lua.org, PUC-Rio $", false),
    ("Lua 5.4", false),
  ])
  func theSeedIsFixedOnlyOnReleasesWhoseLayoutItKnows(ident: String, known: Bool) {
    #expect((waymark_string_seed_release_known(ident) != 0) == known)
  }

  @Test func noStateOfTheLinkedReleaseWasRefused() throws {
    _ = try LuaState()
    #expect(LuaC.openFailure == nil)
  }
}
