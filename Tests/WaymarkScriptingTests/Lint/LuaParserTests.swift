import Foundation
import LuaKit
import Testing

@testable import WaymarkScripting

/// The Lua 5.4 parser behind `waymark check`: it must accept every chunk the real compiler
/// accepts (no false error) and build it faithfully.
@Suite struct LuaParserTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// Lua 5.4 constructs of the kind its own test suite exercises.
  static let constructs = #"""
    local a <const>, b <close> = 10, nil
    local s = [==[
    long ]] string ]=] still]==] .. [[x]] .. "esc\"aped\n\x41\65\u{48}\z
          continued" .. 'single\'' .. "\
    newline"
    --[==[ nested long
    comment ]] still comment ]==] local c = 7 // 2 | 3 & ~1 ~ 2 << 1 >> 1
    --[[ plain long comment ]]
    local d = -2 ^ 2 + #"abc" * 3 % 2 - 1.5e3 + 0x1p4 + 0xA.8p0 + .5 + 3. + 0xff
    goto skip
    do print("never") end
    ::skip::
    for i = 10, 1, -1 do if i == 5 then break end end
    for k, v in pairs({ x = 1, [2] = "y"; 3 }) do local _ = k, v end
    local t = { f = function(...) return select("#", ...) end, ["key"] = {}, }
    t.f(1, 2); t["f"] "string call"; t.f { table = "call" }
    local obj = { n = 0 }
    function obj.inc(self, by) self.n = self.n + (by or 1) return self end
    function obj:dec() self.n = self.n - 1 end
    obj:inc(2):dec()
    repeat local x = 1 until x == 1
    while false do end
    if a > 1 then elseif a < 1 then else end
    local function fact(n) if n <= 1 then return 1 else return n * fact(n - 1) end end
    local x, y = (fact)(5), not nil == true and a or b
    local z; z = a;
    return x, y, s, c, d
    """#

  @Test func acceptsTheProjectsPluginsScriptsAndLuaConstructs() throws {
    var sources: [(String, String)] = [("constructs", Self.constructs)]
    for folder in ["plugins", "scripts", "Tests/WaymarkScriptingTests/Fixtures/hostile"] {
      let base = Self.root.appendingPathComponent(folder)
      for case let path as String in FileManager.default.enumerator(atPath: base.path)! where path.hasSuffix(".lua") {
        sources.append((path, try String(contentsOf: base.appendingPathComponent(path), encoding: .utf8)))
      }
    }
    #expect(sources.count > 30)
    for (name, source) in sources {
      let compiles = Self.compiles(source)
      let parsed = Result { () throws(LuaSyntaxError) in try LuaParser.parse(LuaSource(source)) }
      if compiles {
        #expect(throws: Never.self, "\(name)") { try parsed.get() }
      }
    }
    #expect(Self.compiles(Self.constructs))
    #expect(throws: Never.self) { try LuaParser.parse(LuaSource(file: Array("#!/usr/bin/env lua\nreturn 1".utf8))) }
  }

  @Test(arguments: [
    "local x = ", "x = = 1", "f(", "local t = { 1, 2", "if x then", "return 1 print(2)", "local 1x = 2",
    "x = [[unfinished", "--[==[ unfinished comment ]]", "local s = 'unfinished", "f() = 1", "local x <foo> = 1",
    "a.b:c = 1", "x = 3..2",
  ])
  func rejectsWhatLuaRejects(source: String) {
    #expect(!Self.compiles(source))
    #expect(throws: LuaSyntaxError.self) { try LuaParser.parse(LuaSource(source)) }
  }

  @Test func deepNestingIsASyntaxErrorNotACrash() throws {
    for source in [
      "return " + String(repeating: "(", count: 100_000) + "1" + String(repeating: ")", count: 100_000),
      String(repeating: "do ", count: 100_000) + String(repeating: "end ", count: 100_000),
      "return " + String(repeating: "{", count: 100_000) + String(repeating: "}", count: 100_000),
      "return " + String(repeating: "not ", count: 100_000) + "1",
      "return 1" + String(repeating: " .. 1", count: 100_000),
    ] {
      #expect(!Self.compiles(source))
      #expect(throws: LuaSyntaxError.self) { try LuaParser.parse(LuaSource(source)) }
    }
    // Chains Lua builds without recursion: too tall for the checker's walk, a syntax error of
    // its own (the compiler stays the judge; the file simply gets no static checks).
    for source in [
      "return 1" + String(repeating: " + 1", count: 100_000), "return f" + String(repeating: "()", count: 100_000),
      "return a" + String(repeating: ".b", count: 100_000),
      Self.nestedChains(levels: 40, length: 100),
    ] {
      #expect(Self.compiles(source))
      #expect(throws: LuaSyntaxError.self) { try LuaParser.parse(LuaSource(source)) }
    }
    // As deep as Lua itself allows still parses.
    let deep = "return " + String(repeating: "(", count: 150) + "1" + String(repeating: ")", count: 150)
    #expect(Self.compiles(deep))
    #expect(throws: Never.self) { try LuaParser.parse(LuaSource(deep)) }
  }

  @Test func buildsTheTreeWithLinesAndPrecedence() throws {
    let chunk = try LuaParser.parse(LuaSource("local x = 1 + 2 * 3 ^ 2 ^ 1\nlocal s = 'a' .. 'b' .. 'c'\nreturn x"))
    guard case .local(let names, let values) = chunk[0].kind, case .binary("+", _, let right) = values[0].kind,
      case .binary("*", _, let power) = right.kind, case .binary("^", _, let inner) = power.kind,
      case .binary("^", _, _) = inner.kind
    else {
      Issue.record("wrong tree: \(chunk[0].kind)")
      return
    }
    #expect(names.map(\.name) == ["x"])
    guard case .local(_, let concat) = chunk[1].kind, case .binary("..", _, let tail) = concat[0].kind,
      case .binary("..", _, _) = tail.kind
    else {
      Issue.record("'..' is right associative")
      return
    }
    #expect(chunk.map(\.line) == [1, 2, 3])
  }

  /// `return f(function() return f(function() ... end) + 1 + 1 ... end) + 1 + 1 ...`: each
  /// level's chain stands on the level inside it.
  static func nestedChains(levels: Int, length: Int) -> String {
    var expression = "1"
    for _ in 0..<levels {
      expression = "f(function() return " + expression + String(repeating: " + 1", count: length) + " end)"
    }
    return "return " + expression
  }

  static func compiles(_ source: String) -> Bool {
    guard let state = try? LuaState(libraries: []) else { return false }
    defer { state.close() }
    return (try? state.stack.load(source, chunkName: "=test")) != nil
  }
}
