import Foundation
import Testing

@testable import WaymarkScenarios
@testable import WaymarkScripting

/// The same Lua run in the sandbox (as a script: `waymark run`) and in the reference
/// interpreter `lua5.4` (Debian's, which scripts/test.sh installs), each printing one line per
/// case: what a plugin sees must be what Lua 5.4 gives, within the sandbox's documented
/// removals (docs/plugins.md, "Sandbox").
enum ReferenceLua {
  /// The reference interpreter.
  static let interpreter = "/usr/bin/lua5.4"

  /// Lua put before every batch, in both: `case(name, f, ...)` prints the name and what
  /// `pcall(f, ...)` returned, each value shown without a memory address (strings quoted,
  /// bytes past 127 and control characters escaped, NaN as `nan` whatever its sign, floats
  /// with 17 digits, tables, functions and threads by their type).
  static let helpers = #"""
    local function show(...)
      local out = {}
      for i = 1, select("#", ...) do
        local v = select(i, ...)
        local kind = type(v)
        if kind == "string" then
          out[i] = (string.format("%q", v):gsub("\\\n", "\\n"):gsub("[\128-\255]", function(c)
            return "\\" .. string.byte(c)
          end))
        elseif math.type(v) == "integer" then
          out[i] = string.format("%d", v)
        elseif kind == "number" then
          out[i] = v ~= v and "nan" or string.format("%.17g", v)
        elseif kind == "nil" or kind == "boolean" then
          out[i] = kind == "nil" and "nil" or (v and "true" or "false")
        else
          out[i] = kind
        end
      end
      return table.concat(out, ",")
    end
    local function case(name, f, ...)
      print(name .. " " .. show(pcall(f, ...)))
    end
    """#

  /// What the reference interpreter prints, standard output and error together, when run
  /// with `arguments` (and `environment`, else this process's).
  static func output(_ arguments: [String], environment: [String: String]? = nil) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: interpreter)
    process.arguments = arguments
    if let environment { process.environment = environment }
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let printed = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: printed, as: UTF8.self)
  }

  /// What `lua5.4` and the sandbox printed for `cases` (Lua after ``helpers``), line by line.
  /// Both run the same file, so positions in messages compare too. lua.c collects in
  /// generational mode, the sandbox's states incrementally: the reference is switched to
  /// incremental first, outside the file.
  static func run(_ cases: String) throws -> (sandbox: [String], reference: [String]) {
    try run(bytes: Array((helpers + "\n" + cases).utf8))
  }

  /// What both printed for a file of these exact bytes (which need not be UTF-8).
  static func run(bytes: [UInt8]) throws -> (sandbox: [String], reference: [String]) {
    let folder = try PluginFolder()
    try folder.write("case.lua", bytes: bytes)
    let path = folder.file("case.lua")
    let reference = try output(["-e", "collectgarbage('incremental')", path])
      .split(separator: "\n", omittingEmptySubsequences: false).map(String.init).dropLast()
    var options = ScriptOptions.forTests
    options.scriptBudget = nil
    let outcome = ScriptRunner.run(path, options: options)
    var sandbox = outcome.records.filter { $0.event == .log }.compactMap(\.message)
    if let error = outcome.error { sandbox.append("stopped: \(error)") }
    return (sandbox, Array(reference))
  }

  /// Expects the sandbox to print what the reference prints, naming the first case that
  /// differs.
  static func expectSame(_ cases: String, atLeast count: Int, sourceLocation: SourceLocation = #_sourceLocation)
    throws
  {
    let (sandbox, reference) = try run(cases)
    #expect(reference.count >= count, "the reference printed \(reference)", sourceLocation: sourceLocation)
    for (ours, theirs) in zip(sandbox, reference) where ours != theirs {
      Issue.record("sandbox:   \(ours)\nreference: \(theirs)", sourceLocation: sourceLocation)
      return
    }
    #expect(
      sandbox.count == reference.count, "\(sandbox.count) lines against \(reference.count): \(sandbox.suffix(2))",
      sourceLocation: sourceLocation)
  }
}
