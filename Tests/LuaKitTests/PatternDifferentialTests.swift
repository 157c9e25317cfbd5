import CLua
import CLuaShims
import Testing

@testable import LuaKit

/// The shim's pattern matcher (string.find, match, gmatch, gsub) against Lua 5.4's own string
/// library: the same generated calls, run in a LuaKit state and in a plain `luaL_openlibs`
/// state, must give the same results and the same error messages, byte for byte.
@Suite struct PatternDifferentialTests {
  /// Runs `source(seed, count)` and returns its string result (or the error), in a state with
  /// the bounded library (LuaKit) or with Lua's own (reference).
  static func run(_ source: String, seed: Int, count: Int, reference: Bool) throws -> [UInt8] {
    // The same raw protected call in both (no message handler), so messages compare exactly.
    let ours = reference ? nil : try LuaState()
    let L = try #require(ours?.unsafeMainThread ?? luaL_newstate())
    defer { if ours == nil { lua_close(L) } }
    if reference { luaL_openlibs(L) }
    var bytes = Array(source.utf8)
    let status = bytes.withUnsafeMutableBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) {
        reference
          ? luaL_loadbufferx(L, $0.baseAddress, $0.count, "=generator", "t")
          : waymark_load(L, $0.baseAddress, $0.count, "=generator", "t")
      }
    }
    try #require(status == LUA_OK)
    lua_pushinteger(L, lua_Integer(seed))
    lua_pushinteger(L, lua_Integer(count))
    try #require(waymark_pcall(L, 2, 1, 0) == LUA_OK)
    var length = 0
    let pointer = try #require(lua_tolstring(L, -1, &length))
    return Array(UnsafeRawBufferPointer(start: pointer, count: length))
  }

  /// The first line where two outputs differ, for the failure message.
  static func firstDifference(_ ours: [UInt8], _ theirs: [UInt8]) -> String {
    let a = ours.split(separator: 10, omittingEmptySubsequences: false)
    let b = theirs.split(separator: 10, omittingEmptySubsequences: false)
    for (i, (x, y)) in zip(a, b).enumerated() where x != y {
      return
        "line \(i + 1):\n  ours:      \(String(decoding: x, as: UTF8.self))\n  reference: \(String(decoding: y, as: UTF8.self))"
    }
    return "\(a.count) lines against \(b.count)"
  }

  @Test(arguments: 1...8)
  func generatedCallsMatchTheReference(seed: Int) throws {
    let ours = try Self.run(Self.generator, seed: seed, count: 6000, reference: false)
    let theirs = try Self.run(Self.generator, seed: seed, count: 6000, reference: true)
    #expect(ours.count > 100_000)
    let same = ours == theirs
    #expect(same, "\(Self.firstDifference(ours, theirs))")
  }

  @Test func handPickedCasesMatchTheReference() throws {
    let ours = try Self.run(Self.handPicked, seed: 0, count: 0, reference: false)
    let theirs = try Self.run(Self.handPicked, seed: 0, count: 0, reference: true)
    let same = ours == theirs
    #expect(same, "\(Self.firstDifference(ours, theirs))")
  }

  /// Lua that makes `count` random patterns, subjects, start positions and replacements from
  /// `seed`, calls find (patterned and plain), match, gmatch (up to 12 steps) and gsub on
  /// each, and returns one line of results or error messages per case.
  static let generator = #"""
    local seed, count = ...
    math.randomseed(seed)
    local random, concat, format = math.random, table.concat, string.format
    local atoms = {
      "a", "b", "c", "x", ".", "%a", "%d", "%s", "%w", "%p", "%x", "%u", "%l", "%c", "%g", "%z", "%A", "%D",
      "%S", "%W", "%P", "%Z", "[ab]", "[^ab]", "[a-c]", "[%a_]", "[]]", "[^]]", "[a-]", "[-a]", "[%]]",
      "[]-a]", "[a-%d]", "[%a-z]", "[^%s]", "[%w_%-]", "[\0-\31]", "[", "]", "(", ")", "()", "(()", "%b()",
      "%bab", "%b\"\"", "%bxx", "%b", "%f[%w]", "%f[^%a]", "%f[]", "%f[%z]", "%f", "%1", "%2", "%0", "%9",
      "^", "$", "*", "+", "-", "?", "%", "%%", "%.", "\0", "\255", "(a*)", "(.-)", "(%a+)", "%f[%a]%a+",
    }
    local letters = { "a", "b", "c", "x", "(", ")", " ", "1", "_", "-", "]", "[", "\0", "\255", "%", ".", '"', "\n" }
    local function pattern()
      local t = {}
      for i = 1, random(0, 9) do t[i] = atoms[random(#atoms)] end
      return concat(t)
    end
    local function subject()
      local t = {}
      for i = 1, random(0, 16) do t[i] = letters[random(#letters)] end
      return concat(t)
    end
    local function show(...)
      local out = {}
      for i = 1, select("#", ...) do
        local v = select(i, ...)
        out[i] = type(v) == "string" and format("%q", v) or tostring(v)
      end
      return concat(out, ",")
    end
    local seen
    local replacements = {
      "%0", "%1", "<%2>", "x", "%%", "%", "%a", "[%1%1]", "%9", 7, 2.5,
      function(...) seen = select("#", ...); return (...) end,
      function() return false end, function() return {} end, function(a) return #tostring(a) end,
      { a = "A", b = false, ["()"] = 1, x = {} }, {},
    }
    local starts = { 1, 2, 0, -1, -3, 5, 17, 40, math.maxinteger, math.mininteger }
    local lines = {}
    for case = 1, count do
      local p, s = pattern(), subject()
      local init = random(3) > 1 and starts[random(#starts)] or nil
      local parts = {
        show(pcall(string.find, s, p, init)), show(pcall(string.find, s, p, init, true)),
        show(pcall(string.match, s, p, init)),
      }
      local ok, iterate = pcall(string.gmatch, s, p, init)
      if ok then
        local steps = {}
        for k = 1, 12 do
          local r = table.pack(pcall(iterate))
          steps[k] = show(table.unpack(r, 1, r.n))
          if not r[1] or r[2] == nil then break end
        end
        parts[#parts + 1] = concat(steps, ";")
      else
        parts[#parts + 1] = tostring(iterate)
      end
      local replacement = replacements[random(#replacements)]
      local limit = random(4) == 1 and random(-1, 3) or nil
      seen = nil
      parts[#parts + 1] = show(pcall(string.gsub, s, p, replacement, limit)) .. "#" .. tostring(seen)
      lines[case] = concat(parts, " | ")
    end
    return concat(lines, "\n")
    """#

  /// Cases a random generator rarely reaches: nesting limits, capture limits, coercions,
  /// argument errors, long subjects.
  static let handPicked = #"""
    local format, concat = string.format, table.concat
    local function show(...)
      local out = {}
      for i = 1, select("#", ...) do
        local v = select(i, ...)
        out[i] = type(v) == "string" and format("%q", v) or tostring(v)
      end
      return concat(out, ",")
    end
    local lines = {}
    local function try(...) lines[#lines + 1] = show(pcall(...)) end
    for _, n in ipairs({ 150, 199, 200, 201, 250 }) do
      local s = string.rep("a", n)
      try(string.match, s, string.rep(".?", n))
      try(string.match, s, string.rep("a?", n) .. "$")
      try(string.find, s, string.rep("(", n % 40) .. "a" .. string.rep(")", n % 40))
      try(string.gsub, s, string.rep("a-", n), "x")
      try(string.match, s, string.rep("(a)", 31) .. "(a)")
      try(string.match, s, string.rep("(a)", 33))
    end
    try(string.find, 12345, 3)
    try(string.find, 12345, 3.0)
    try(string.match, 1e15, "%d+")
    try(string.gsub, 123, "2", 9)
    try(string.gsub, "abc", "b", nil)
    try(string.gsub, "abc", "b", true)
    try(string.gsub, "abc", "b", "x", "y")
    try(string.gsub, "abc", "b", "x", 1.5)
    try(string.find, nil, "a")
    try(string.find, "a", nil)
    try(string.find, "a", "a", "x")
    try(string.find, "a", {})
    try(string.gmatch, "a")
    try(string.match, "hello world from lua", "(%w+) (%w+)", 7)
    try(string.gsub, "hello world", "(o)", "%1%1", 1)
    try(string.gsub, "abc", "", "-")
    try(string.gsub, "abc", "x*", "-")
    try(string.gsub, "abc", "^", ">")
    try(string.gsub, "abc", "$", "<")
    try(string.gsub, "abc", "()", "%1")
    try(string.gsub, "abc", "()b()", "%2%1")
    try(string.find, "a+b", "+", 1, true)
    try(string.find, "a\0b", "\0", 1, true)
    try(string.find, "a\0b", "%z")
    try(string.find, "THE (quick) fox", "%((%a+)%)")
    try(string.find, "  x", "^%s*()")
    try(string.match, "key = value", "(%w+)%s*=%s*(%w+)")
    try(string.match, string.rep("(", 1000) .. string.rep(")", 1000), "%b()")
    try(string.match, "f(a(b)c)d", "%b()")
    try(string.match, "THE (quick) fox", "%f[%a]%a+", 5)
    try(string.match, "aaa", "(a*)%1")
    try(string.match, "abab", "(ab)%1$")
    try(string.match, "abc", "()%1")
    local words = {}
    for w in string.gmatch("one two  three", "%a+") do words[#words + 1] = w end
    lines[#lines + 1] = concat(words, "/")
    for k, v in string.gmatch("a=1, b=2", "(%w+)=(%w+)") do lines[#lines + 1] = k .. v end
    for a, b in string.gmatch("xyz", "()(.)", 2) do lines[#lines + 1] = a .. b end
    local t = setmetatable({}, { __index = function(_, k) return k:upper() end })
    try(string.gsub, "hello world", "%w+", t)
    try(string.gsub, "hello world", "%w+", { hello = 1.5 })
    return concat(lines, "\n")
    """#
}
