import Foundation
import Testing
import WaymarkCore

@testable import WaymarkScenarios
@testable import WaymarkScripting

/// Sources are bytes, as in Lua (docs/plugins.md, "Sandbox"): a script, plugin or module with
/// Latin-1 bytes in its strings and comments (as three of Lua's own test files have) loads,
/// and Lua compiles the file's exact bytes; only Swift's own readers decode them, to show.
@Suite struct SourceBytesTests {
  /// `text` with each character below U+0100 as one byte: Latin-1, as an old editor saves it.
  static func latin1(_ text: String) -> [UInt8] {
    text.unicodeScalars.map { scalar in
      precondition(scalar.value < 256, "not Latin-1: \(scalar)")
      return UInt8(scalar.value)
    }
  }

  @Test func aLatin1ScriptGivesWhatLua54Gives() throws {
    let cases = """
      -- Résumé: a comment in Latin-1.
      local s = "café crème ÿ"
      local long = [[à la
      carte]]
      --[==[ déjà vu ]==]
      case("length", function() return #s, #long end)
      case("bytes", function() return s:byte(1, -1) end)
      case("quoted", function() return string.format("%q", s) end)
      case("upper", function() return s:upper(), long:lower() end)
      case("patterns", function() return s:find("[\\128-\\255]"), s:gsub("[\\128-\\255]", "?") end)
      case("utf8.len", utf8.len, s)
      case("equal to escapes", function() return s == "caf\\233 cr\\232me \\255", s < "cafe" end)
      case("reversed", function() return s:reverse():byte(1, 3) end)
      case("load of such a string", function() return #load("return '" .. s .. "' -- ç")() end)
      """
    let (sandbox, reference) = try ReferenceLua.run(bytes: Self.latin1(ReferenceLua.helpers + "\n" + cases))
    #expect(reference.count == 9, "the reference printed \(reference)")
    #expect(sandbox == reference)
    #expect(reference.first == "length true,12,10")
  }

  @Test func aByteOrderMarkAndAHashLineAreSkippedAsLua54SkipsThem() throws {
    let cases =
      "case(\"where\", function() error(\"here\") end)\ncase(\"later\", function() local t = nil; return t.x end)\n"
    for start in ["\u{FEFF}#!/usr/bin/env lua\n", "# a first line Lua skips\n"] {
      let file = Array((start + ReferenceLua.helpers + "\n" + cases).utf8)
      let (sandbox, reference) = try ReferenceLua.run(bytes: file)
      #expect(reference.count == 2, "the reference printed \(reference)")
      #expect(sandbox == reference)
    }
  }

  @Test func aByteOutsideAStringIsLuasSyntaxError() throws {
    let folder = try PluginFolder()
    try folder.write("bad.lua", bytes: Self.latin1("local map = waymark.map{}\nlocal café = 1\n"))
    let lua = Process()
    lua.executableURL = URL(fileURLWithPath: ReferenceLua.interpreter)
    lua.arguments = [folder.file("bad.lua")]
    let output = Pipe()
    lua.standardError = output
    try lua.run()
    let theirs = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    lua.waitUntilExit()
    let message = "bad.lua:2: unexpected symbol near '<\\233>'"
    #expect(theirs.contains(message), "lua5.4 said \(theirs)")
    let outcome = ScriptRunner.run(folder.file("bad.lua"), options: .forTests)
    #expect(outcome.error?.contains(message) == true, "\(outcome.error ?? "no error")")
    let report = ScriptChecker.check([folder.file("bad.lua")])
    #expect(report.diagnostics.map(\.message).contains { $0.contains("unexpected symbol near '<\\233>'") })
    #expect(throws: LuaSyntaxError(line: 2, message: "unexpected symbol near '<\\233>'")) {
      try LuaLexer.tokens(LuaSource(bytes: Self.latin1("local map = waymark.map{}\nlocal café = 1\n")))
    }
  }

  @Test func aPluginAndItsModuleMayHoldLatin1AndAreNotReloadedUntilChanged() throws {
    let f = try PluginFixture([:])
    try f.folder.write(
      "greeter.lua",
      bytes: Self.latin1(
        """
        -- Grüße
        local words = require("words")
        local p = {}
        function p.did_tap_marker(map, marker) print(#words.hello, words.hello:byte(-1), "señor" == "se\\241or") end
        return p
        """))
    try f.folder.write("words.lua", bytes: Self.latin1("return { hello = \"olé\" } -- ¡olé!"))
    f.host.loadPlugins(from: [f.folder.path])
    #expect(f.host.diagnostics.isEmpty, "\(f.host.diagnostics)")
    try f.map.tap(f.sydney)
    #expect(f.logs == ["3\t233\ttrue"])
    #expect(f.host.reloadChangedPlugins().isEmpty)
    #expect(f.records(.pluginReloaded).isEmpty, "unchanged bytes are no change")
    try f.folder.write("words.lua", bytes: Self.latin1("return { hello = \"olà\" }"))
    #expect(f.host.reloadChangedPlugins().isEmpty)
    #expect(f.records(.pluginReloaded).count == 1)
    try f.map.tap(f.sydney)
    #expect(f.logs.last == "3\t224\ttrue")
  }

  @Test func checkAcceptsLatin1AndLintsIt() throws {
    let folder = try PluginFolder()
    try folder.write(
      "p.lua",
      bytes: Self.latin1(
        "-- Café\nlocal p = {}\nfunction p.did_tap_marker(map, marker) print((\"café\"):uper()) end\nreturn p\n"))
    let report = ScriptChecker.check([folder.file("p.lua")])
    #expect(report.files == 1)
    // The linter read the file: the misspelt method is its one finding, on line 3.
    #expect(report.diagnostics.map(\.line) == [3], "\(report.diagnostics)")
    #expect(report.diagnostics.first?.message.contains("string has no method 'uper'") == true)
  }

  @Test func aScriptFromStandardInputKeepsItsBytes() {
    var options = ScriptOptions.forTests
    options.scriptSource = LuaSource(bytes: Self.latin1("print(#\"é\", (\"é\"):byte())"))
    let outcome = ScriptRunner.run("stdin", options: options)
    #expect(outcome.error == nil)
    #expect(outcome.records.filter { $0.event == .log }.compactMap(\.message) == ["1\t233"])
  }

  @Test func theLiveSessionsCapturingKeepsTheBytes() throws {
    let source = LuaSource(bytes: Self.latin1("local s = \"é\"\nreturn {}\n"))
    let captured = try #require(ScriptLocals.capturing(source))
    #expect(captured.bytes.starts(with: Self.latin1("local s = \"é\"\n")))
    #expect(captured.bytes.filter { $0 >= 0x80 } == [0xE9])
  }

  @Test func aFuzzReproducerKeepsTheScriptsBytes() {
    let source = LuaSource(bytes: Self.latin1("local map = waymark.map{} -- café\n"))
    let reproducer = FuzzReproducer.source(
      script: "s.lua", source: source, pluginFolders: [], folder: ".", report: FuzzReport(),
      command: "waymark fuzz s.lua")
    #expect(reproducer.bytes.filter { $0 >= 0x80 } == [0xE9])
    #expect(reproducer.text.contains("local map = waymark.map{} -- caf\u{FFFD}\nend)(...)"))
  }
}
