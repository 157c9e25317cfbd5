import Testing

@testable import LuaKit

/// The library functions that used to loop inside one C call, where the watchdog's hook
/// cannot reach, now end at the budget (time or instructions) whatever their arguments; and they still give
/// Lua 5.4's results and errors.
@Suite struct BoundedLibraryTests {
  static let budget = Duration.milliseconds(50)
  /// Generous sanity bound: "it stopped at all" (machines are noisy).
  static let sanityBound = Duration.seconds(20)
  /// Instructions, with work in C counted alike (a byte parsed is one): far below what any
  /// runaway here needs, the 9.6 MB loads included.
  static let instructions = 2_000_000

  /// (name, setup run without a budget, the call that must stop at the budget)
  static let runaways: [(String, String, String)] = [
    ("table.move of 2^40 elements", "", "table.move({}, 1, 1 << 40, 1, {})"),
    ("table.move onto itself", "", "local t = {} table.move(t, 1, 1 << 40, 2)"),
    (
      "table.insert under a __len of 2^40", "",
      "table.insert(setmetatable({}, { __len = function() return 1 << 40 end }), 1, 'x')"
    ),
    (
      "table.remove under a __len of 2^40", "",
      "table.remove(setmetatable({}, { __len = function() return 1 << 40 end }), 1)"
    ),
    (
      "table.sort of two million numbers", "big = {} for i = 1, 2e6 do big[i] = (i * 7919) % 1000003 end",
      "table.sort(big)"
    ),
    (
      "table.concat of a million strings with a long separator", "big = {} for i = 1, 1e6 do big[i] = 'x' end",
      "for i = 1, 10 do table.concat(big, string.rep(',', 100)) end"
    ),
    ("find .-b on 30 MiB of a", "s = string.rep('a', 30 << 20)", "s:find('.-b')"),
    ("%b() over a megabyte of (", "s = string.rep('(', 1 << 20)", "s:find('%b()')"),
    ("twenty a? in a row", "s = string.rep('a', 100000)", "s:find(string.rep('a?', 20) .. 'b')"),
    ("back-references", "s = string.rep('a', 1 << 16)", "s:find('(a*)%1%1b')"),
    ("one gmatch step", "s = string.rep('a', 1 << 20)", "s:gmatch('a*b')()"),
    ("gmatch a* over 30 MiB without an a", "s = string.rep('b', 30 << 20)", "for m in s:gmatch('a*') do end"),
    ("gsub", "s = string.rep('a', 1 << 20)", "s:gsub('a-b', '')"),
    ("match", "s = string.rep('a', 1 << 20)", "s:match('.-.-b')"),
    (
      "plain find of a long needle", "s = string.rep('a', 1 << 22) n = string.rep('a', 1 << 20) .. 'b'",
      "s:find(n, 1, true)"
    ),
    ("loading a 10 MB chunk", "s = string.rep('x = 1 ', 1.6e6)", "load(s)"),
    (
      "loading from a reader that returns a 10 MB piece", "piece = string.rep('x = 1 ', 1.6e6)",
      "local n = 0 load(function() n = n + 1 if n == 1 then return piece end end)"
    ),
  ]

  @Test(arguments: runaways)
  func runawayCallStopsAtTheBudget(name: String, setup: String, call: String) throws {
    let state = try LuaState()
    try state.stack.run(setup)
    state.timeBudget = Self.budget
    // A fast machine may finish the smaller runaways (a 10 MB load) inside 50 ms: an exact
    // instruction budget, which counts work in C too, stops every one on every machine.
    state.instructionBudget = (Self.instructions, .exact)
    let clock = ContinuousClock()
    let start = clock.now
    let error = try #require(throws: LuaError.self, "\(name) finished") {
      try state.stack.run(call, chunkName: "=hostile")
    }
    #expect(clock.now - start < Self.sanityBound)
    #expect(error.kind == .timeout, "\(name): \(error)")
    #expect(!state.isHookArmed)
    try state.stack.run("return ('still' .. 'usable'):find('usa')", results: 2)
    #expect(state.stack.integer(at: -2) == 6)
  }

  /// The collector works in steps that count against the budget: under an exact
  /// instruction budget (deterministic, unlike the clock) a full collection of a big heap
  /// is stopped in the middle.
  @Test func aFullCollectionOfABigHeapStopsAtTheBudget() throws {
    let state = try LuaState()
    try state.stack.run("keep = {} for i = 1, 2e5 do keep[i] = { i } end")
    state.instructionBudget = (20_000, .exact)
    let error = try #require(throws: LuaError.self) { try state.stack.run("collectgarbage('collect')") }
    #expect(error.kind == .timeout)
    #expect(error.message.contains("instruction budget of 20000 instructions exceeded"))
    #expect(!state.isHookArmed)
    try state.stack.run("keep = nil")
    state.instructionBudget = nil
    try state.stack.run("collectgarbage('collect')")
  }

  /// Under an exact instruction budget, work in C counts like instructions: a call that
  /// spends its time in a pattern match stops at the same point on every machine.
  @Test func cWorkCountsAgainstAnExactInstructionBudget() throws {
    func stepsBeforeTheStop() throws -> String {
      let state = try LuaState()
      state.instructionBudget = (1_000_000, .exact)
      state.timeBudget = .seconds(60)
      let error = try #require(throws: LuaError.self) {
        try state.stack.run("local s = string.rep('a', 1 << 16) return s:find('.-b')", chunkName: "=c")
      }
      #expect(error.kind == .timeout)
      return error.message
    }
    let first = try stepsBeforeTheStop()
    #expect(first.contains("instruction budget of 1000000 instructions exceeded"))
    #expect(try stepsBeforeTheStop() == first)
  }

  @Test func repeatingTheEmptyStringReturnsAtOnce() throws {
    let state = try LuaState()
    state.timeBudget = Self.budget
    try state.stack.run(
      "return string.rep('', 1 << 62), string.rep('', 1 << 62, ''), string.rep('ab', 3, ', ')", results: 3)
    #expect(state.stack.string(at: 1) == "")
    #expect(state.stack.string(at: 2) == "")
    #expect(state.stack.string(at: 3) == "ab, ab, ab")
  }

  @Test func theOtherFunctionsMatchTheReference() throws {
    let ours = try PatternDifferentialTests.run(Self.libraryCases, seed: 0, count: 0, reference: false)
    let theirs = try PatternDifferentialTests.run(Self.libraryCases, seed: 0, count: 0, reference: true)
    let same = ours == theirs
    #expect(same, "\(PatternDifferentialTests.firstDifference(ours, theirs))")
    #expect(ours.count > 1000)
  }

  @Test func sortOrdersWithAndWithoutAnOrderFunction() throws {
    let state = try LuaState()
    let stack = state.stack
    try stack.run(
      """
      local t, u = {}, {}
      for i = 1, 5000 do t[i] = (i * 7919) % 10007; u[i] = tostring(t[i]) end
      table.sort(t)
      table.sort(u, function(a, b) return #a > #b or (#a == #b and a < b) end)
      for i = 2, #t do assert(t[i - 1] <= t[i]) end
      for i = 2, #u do assert(#u[i - 1] > #u[i] or (#u[i - 1] == #u[i] and u[i - 1] < u[i])) end
      local ok, message = pcall(table.sort, { 3, "x", 1 })
      return #t, ok, message
      """, results: 3)
    #expect(stack.integer(at: 1) == 5000)
    #expect(stack.boolean(at: 2) == false)
    #expect(stack.string(at: 3)?.contains("attempt to compare") == true)
  }

  @Test func collectGarbageFreesMemoryInSteps() throws {
    let state = try LuaState()
    try state.stack.run("keep = {} for i = 1, 100000 do keep[i] = { i } end")
    let full = state.memoryInUse
    try state.stack.run(
      "keep = nil return collectgarbage('collect'), collectgarbage('step'), collectgarbage('count')", results: 3)
    #expect(state.stack.integer(at: 1) == 0)
    #expect(state.stack.type(at: 2) == .boolean)
    #expect(state.memoryInUse < full / 4)
  }

  /// Calls of the rewritten table, string, utf8 and load functions, results and errors.
  static let libraryCases = #"""
    local format, concat = string.format, table.concat
    local function show(...)
      local out = {}
      for i = 1, select("#", ...) do
        local v = select(i, ...)
        if type(v) == "table" then
          local items = {}
          for k = 1, 12 do items[k] = tostring(v[k]) end
          v = "{" .. concat(items, ",") .. "}"
        elseif type(v) == "string" then
          v = format("%q", v)
        elseif type(v) == "function" then
          v = "function"
        end
        out[i] = tostring(v)
      end
      return concat(out, ",")
    end
    local lines = {}
    local function try(...) lines[#lines + 1] = show(pcall(...)) end
    local function list() return { 1, 2, 3, 4, 5 } end
    local function insert(...) local t = list() table.insert(t, ...) return t end
    local function remove(...) local t = list() return table.remove(t, ...), t end
    try(insert, 9)
    try(insert, 1, 9)
    try(insert, 6, 9)
    try(insert, 7, 9)
    try(insert, 0, 9)
    try(insert, -1, 9)
    try(insert, 2.5, 9)
    try(insert, "2", 9)
    try(insert, 1, 2, 3)
    try(insert)
    try(table.insert, nil, 1)
    try(table.insert, "x", 1)
    try(remove)
    try(remove, 1)
    try(remove, 5)
    try(remove, 6)
    try(remove, 7)
    try(remove, 0)
    try(table.remove, {})
    try(table.remove, {}, 0)
    try(table.remove, {}, 1)
    try(table.remove, {}, -1)
    try(table.move, list(), 1, 3, 3)
    try(table.move, list(), 2, 5, 1)
    try(table.move, list(), 1, 5, 1, {})
    try(table.move, list(), 3, 1, 1)
    try(table.move, list(), -1, 2, 1)
    try(table.move, list(), 1, math.maxinteger, 2)
    try(table.move, list(), math.mininteger, 1, 1)
    try(table.move, list(), 1, 2, math.maxinteger)
    try(table.move, list(), 1, 2)
    try(table.move, list(), 1, 2, 1, "x")
    try(table.concat, { 1, 2, "x", 3.5 })
    try(table.concat, { 1, 2, 3 }, ", ")
    try(table.concat, { 1, 2, 3 }, ", ", 2)
    try(table.concat, { 1, 2, 3 }, ", ", 2, 3)
    try(table.concat, { 1, 2, 3 }, ", ", 3, 2)
    try(table.concat, { 1, {}, 3 })
    try(table.concat, { 1, 2, 3 }, ", ", 1, 5)
    try(table.concat, {}, "x", math.maxinteger - 1, math.maxinteger)
    try(table.unpack, { 1, 2, 3 })
    try(table.unpack, { 1, 2, 3 }, 2)
    try(table.unpack, { 1, 2, 3 }, -1, 1)
    try(table.unpack, { 1, 2, 3 }, 3, 1)
    try(table.unpack, {}, 1, 1e7)
    try(table.unpack, {}, math.mininteger, math.maxinteger)
    try(table.unpack, "abc", 1, 2)
    try(table.sort, { 3, 1, 2 }, 5)
    try(table.sort, "x")
    local proxy = setmetatable({}, {
      __index = function(_, k) return k * 10 end, __newindex = function(t, k, v) rawset(t, k, v) end,
      __len = function() return 4 end,
    })
    try(table.concat, proxy, "-")
    try(table.unpack, proxy)
    try(table.insert, proxy, 1, "first")
    try(table.remove, setmetatable({}, { __len = function() return 2 end }))
    try(string.rep, "ab", 3)
    try(string.rep, "ab", 3, "--")
    try(string.rep, "ab", 0)
    try(string.rep, "ab", -5)
    try(string.rep, "ab", 1, "--")
    try(string.rep, "", 5, "x")
    try(string.rep, "x", 1 << 40)
    try(string.rep, "x", 2.5)
    try(string.rep)
    try(string.rep, "x", 1 << 31)
    for _, s in ipairs({ "", "abc", "aé€😀", "\xF4\x8F\xBF\xBF", "\xED\xA0\x80", "\xC0\x80", "a\xF5b", "\xF8\x88\x80\x80\x80" }) do
      local t = {}
      local ok, message = pcall(function() for p, c in utf8.codes(s) do t[#t + 1] = p .. ":" .. c end end)
      lines[#lines + 1] = concat(t, " ") .. " " .. tostring(ok) .. " " .. tostring(message)
      ok, message = pcall(function() for p, c in utf8.codes(s, true) do t[#t + 1] = p .. ":" .. c end end)
      lines[#lines + 1] = concat(t, " ") .. " " .. tostring(ok) .. " " .. tostring(message)
    end
    local big = "return " .. string.rep("1 + ", 40000) .. "1"
    lines[#lines + 1] = show(load(big)())
    lines[#lines + 1] = show(load("x = ", "=chunk"))
    lines[#lines + 1] = show(load("return ...", "=chunk", "b"))
    lines[#lines + 1] = show(load("\27Lua", "=chunk", "t"))
    local pieces, n = { "return ", "1 +", " 2", "" }, 0
    lines[#lines + 1] = show(load(function() n = n + 1 return pieces[n] end)())
    n = 0
    lines[#lines + 1] = show(load(function() n = n + 1 return n < 3 and 42 or nil end))
    lines[#lines + 1] = show(load(function() return {} end))
    lines[#lines + 1] = show(pcall(load, 42))
    lines[#lines + 1] = show(load("return x", "=env", "t", { x = "from env" })())
    lines[#lines + 1] = show(load("return x", "=env", "t", nil))
    return concat(lines, "\n")
    """#
}

/// Errors raised from the shims' C functions unwind those frames with a long jump. Under
/// ThreadSanitizer each such jump must reach its interceptor (thread_sanitizer.c), or every
/// error leaves the frames on its shadow stack until the runtime crashes; in every build the
/// state must be as usable after half a million errors as before.
@Suite struct LibraryErrorUnwindingTests {
  @Test func halfAMillionErrorsRaisedInCLeaveTheStateAsItWas() throws {
    let state = try LuaState()
    let stack = state.stack
    try stack.run(
      """
      local failed = 0
      for i = 1, 500000 do
        if not pcall(string.rep, 'x', -1, {}) then failed = failed + 1 end
        if not pcall(string.gmatch('ab', '(a'), nil) then failed = failed + 1 end
      end
      return failed
      """, results: 1)
    #expect(stack.integer(at: -1) == 1_000_000)
    stack.pop()
    #expect(stack.top == 0)
  }
}
