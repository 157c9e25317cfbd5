import Testing

@testable import LuaKit

/// The published bugs of Lua 5.4.4 (lua.org/bugs.html) that Lua code can reach, each closed
/// by LuaKit's shim: one test per bug, on the example of the bug list or the Lua test suite.
/// docs/plugins.md ("Known bugs of Lua 5.4.4") lists every bug of the release and why the
/// others cannot be reached.
@Suite struct Lua544BugTests {
  /// Runs `source` in a fresh state with every library and returns its results as strings.
  func run(_ source: String, results: Int32 = 1) throws -> [String?] {
    let state = try LuaState()
    try state.stack.run(source, chunkName: "=bug", results: results)
    return (1...results).map { state.stack.string(at: $0) ?? state.stack.typeName(at: $0) }
  }

  @Test("'break' may not properly close variable in a 'for' loop: the closing value is closed at the break")
  func breakClosesTheForLoopsClosingValue() throws {
    let results = try run(
      """
      local closed = false
      local o1 = setmetatable({}, { __close = function() closed = true end })
      local function test()
        for k, v in next, {}, nil, o1 do
          local function f() return k end   -- an upvalue inside the loop
          break
        end
        local at_break = closed
        print = tostring -- a C call here met the stale entry in 5.4.4 ("attempt to call a nil value")
        return at_break
      end
      return tostring(test()) .. " " .. tostring(closed)
      """)
    #expect(results == ["true true"])
  }

  /// Not repaired (moving code to save a line number is not worth a rewriter that relocates
  /// jumps): `//` and `%` by zero raise Lua 5.4.4's own message, whose position is that of the
  /// last instruction that saved it (a call, or the function's first line), as `lua5.4`
  /// reports it (docs/plugins.md, "Known bugs of Lua 5.4.4").
  @Test("Wrong line in error message for arith. errors: the message lua5.4 gives, unrepaired")
  func integerDivisionByZeroReportsWhatLuaReports() throws {
    let program = #"""
      local function message_of(source)
        local ok, message = pcall(load(source, "=t"))
        return message
      end
      return table.concat({
        message_of("local a, b = 1, 0\nlocal x = 1\nlocal c = a // b"),
        message_of("local a = 1\nlocal s = tostring(a)\n\nlocal c = a % 0"),
        message_of("local a = 1\nlocal c = a // 1\nlocal d = a // 0.0\nreturn 1 // (a - 1)"),
      }, "|")
      """#
    let ours = try PatternDifferentialTests.run(program, seed: 0, count: 0, reference: false)
    let theirs = try PatternDifferentialTests.run(program, seed: 0, count: 0, reference: true)
    #expect(String(decoding: ours, as: UTF8.self) == String(decoding: theirs, as: UTF8.self))
    #expect(
      String(decoding: ours, as: UTF8.self)
        == "t:1: attempt to divide by zero|t:2: attempt to perform 'n%0'|t:1: attempt to divide by zero")
  }

  @Test("Wrong code generation for constants in bitwise operations: refused with the line")
  func miscompiledBitwiseOperationsAreRefused() throws {
    let results = try run(
      #"""
      local constants = { "local x = {" }
      for i = 1, 257 do constants[#constants + 1] = i .. ".1," end
      constants = table.concat(constants) .. "}\nlocal a, b, c = 2, 3, false\n"
      local out = {}
      for _, e in ipairs({
        "1 ~ (2 or 3)", "1 | (a or b)", "5 & (a == b)", "1 ~ (c and a or b)", "1 | (a < b and 1 or 2)",
        "(a or 1) | b", "(c or 1) | (a or b)", "1 | b", "a | (b or 1)", "1 << (a or b)",
      }) do
        local f, message = load(constants .. "return " .. e, "=bits")
        out[#out + 1] = f and tostring(f()) or message:match("^[^:]*:%d+: Lua 5%.4%.4 compiles") or message
      end
      return table.concat(out, "|")
      """#)
    let refused = "bits:3: Lua 5.4.4 compiles"
    #expect(results == [[refused, refused, refused, refused, refused, "3", "3", "3", "3", "4"].joined(separator: "|")])
  }

  @Test("C-stack overflow with deep nesting of coroutine.close: an error, not a crash")
  func deeplyNestedCoroutineCloseIsAnError() throws {
    let results = try run(
      """
      local function nest(n)
        local co = coroutine.create(function()
          local x <close> = setmetatable({}, { __close = function()
            if n > 0 then assert(coroutine.close(nest(n - 1))) end
          end })
          coroutine.yield()
        end)
        coroutine.resume(co)
        return co
      end
      local ok, message = coroutine.close(nest(10000))
      return tostring(ok) .. " " .. tostring(message):match("C stack overflow")
      """)
    #expect(results == ["false C stack overflow"])
  }

  @Test("'utf8.codes' does not raise an error on spurious continuation bytes: it does now")
  func utf8CodesRaisesOnSpuriousContinuationBytes() throws {
    let results = try run(
      #"""
      local function codes(s)
        local t = {}
        for p, c in utf8.codes(s) do t[#t + 1] = p .. ":" .. c end
        return table.concat(t, " ")
      end
      return table.concat({
        codes("aé€😀"), select(2, pcall(codes, "a\x80b")), select(2, pcall(codes, "\x80")),
        select(2, pcall(codes, "é\xA9")),
      }, "|")
      """#)
    let message = try #require(results.first ?? nil).split(separator: "|").map(String.init)
    #expect(message[0] == "1:97 2:233 4:8364 7:128512")
    #expect(message[1].hasSuffix("invalid UTF-8 code"))
    #expect(message[2].hasSuffix("bad argument #1 to 'codes' (invalid UTF-8 code)"))
    #expect(message[3].hasSuffix("invalid UTF-8 code"))
  }

  @Test("Lua can generate wrong code when _ENV is <const>: Debian's 5.4.4 carries the fix (CVE-2022-28805)")
  func constEnvironmentCompilesRight() throws {
    let results = try run(
      """
      local a = load("local _ENV <const> = { x = 42 }; return x")()
      local b = load("local _ENV <const> = { t = { u = 3 } }; return function() return t.u end")()()
      local ok, message = pcall(load("local _ENV <const> = 10; x = 1"))
      return a .. " " .. b .. " " .. message:match("attempt to index a number value")
      """)
    #expect(results == ["42 3 attempt to index a number value"])
  }

  @Test(
    "Lua-stack overflow when C stack overflows while handling an error: Debian's 5.4.4 carries the fix (CVE-2022-33099)"
  )
  func errorHandlerOverflowIsAnError() throws {
    let results = try run(
      """
      local function loop(x, y, z) return 1 + loop(x, y, z) end
      local ok, message = xpcall(loop, loop)
      return tostring(ok) .. " " .. message
      """)
    #expect(results == ["false error in error handling"])
  }

  /// The repairs rewrite bytecode (jumps, lines, locals): a program full of loops, jumps,
  /// closures, divisions and errors must behave exactly as compiled by Lua, tracebacks and
  /// local names included.
  @Test func repairedCodeBehavesAsCompiled() throws {
    let ours = try PatternDifferentialTests.run(Self.repairProgram, seed: 0, count: 0, reference: false)
    let theirs = try PatternDifferentialTests.run(Self.repairProgram, seed: 0, count: 0, reference: true)
    let same = ours == theirs
    #expect(same, "\(PatternDifferentialTests.firstDifference(ours, theirs))")
    #expect(ours.count > 1500)
  }

  static let repairProgram = #"""
    local out = {}
    local function say(...)
      local t = table.pack(...)
      for i = 1, t.n do t[i] = tostring(t[i]) end
      out[#out + 1] = table.concat(t, " ", 1, t.n)
    end
    local function collatz(n)
      local steps = 0
      while n ~= 1 do
        if n % 2 == 0 then n = n // 2 else n = 3 * n + 1 end
        steps = steps + 1
      end
      return steps
    end
    for i = 1, 60 do say(i, collatz(i), i % 7, i // 3, -i // 4, -i % 5, i % -3, 7 // i) end
    local d, m = 3, 4
    for i = 10, 1, -1 do
      for j = 1, i do
        if (i * j) % m == 0 then goto next end
        if j // d > 2 then break end
        say("ij", i, j, (i * j) // d, (i + j) % m)
        ::next::
      end
    end
    local fs = {}
    for k, v in pairs({ a = 10, b = 20, c = 30 }) do
      local q = v // d
      fs[#fs + 1] = function() return k, q, v % m end
      if v % 20 == 0 then
        local keep = v // 2
        fs[#fs + 1] = function() return keep end
      end
    end
    table.sort(fs, function(f, g) return tostring(select(1, f())) < tostring(select(1, g())) end)
    for _, f in ipairs(fs) do say("f", f()) end
    local i = 0
    repeat
      i = i + 1
      local r = 100 // i % 7
      if r == 3 then say("r3", i) end
    until i % 13 == 0 and i > 20
    local function deep(n) if n == 0 then return 0 end return (n % 3) + deep(n - 1) // 1 end
    say("deep", deep(50))
    local function fails(n)
      local a, b, c = n, n * 2, n // 2
      local t = {}
      for x = 1, n do t[x] = x % 3 end
      error("failed at " .. a .. " " .. b .. " " .. c)
    end
    say(pcall(fails, 9))
    say(select(2, xpcall(fails, debug.traceback, 9)))
    local function locals()
      local names = {}
      local first, second = 17 // 5, 17 % 5
      for n = 1, 20 do
        local name = debug.getlocal(1, n)
        if not name then break end
        names[#names + 1] = name
      end
      return table.concat(names, ","), first, second
    end
    say(locals())
    local big = {}
    for n = 1, 300 do big[#big + 1] = "local v" .. n .. " = (n or " .. n .. ") // 3 + " .. n .. " % 4" end
    local chunk = "local n = ...\n" .. table.concat(big, "\n", 1, 150) .. "\nreturn v1 + v150, debug.getinfo(1, 'l').currentline"
    say(load(chunk, "=big")(11))
    return table.concat(out, "\n")
    """#
}
