import CFuzzDriver
import CLua
import CLuaShims
import Foundation

/// One input of the fuzz target for the bytecode checks (chunk_repair.c): the input's bytes
/// choose a valid, terminating Lua program (``ProgramGenerator``) full of what the checks
/// look at and patch: for loops left by `break` and `goto` with closures over their
/// variables, to-be-closed variables, integer division, bitwise operators with constant
/// operands, functions with more than 255 constants. The program runs twice in plain Lua
/// states: loaded through `waymark_load` (checked and repaired) and through
/// `luaL_loadbufferx` (as Lua compiled it). The programs never give a for loop a closing
/// value, the one case where Lua 5.4.4's own code is wrong, so both runs must give the same
/// output and the same errors, byte for byte; a chunk refused for its bitwise operation must
/// be refused with that message (and one Lua cannot compile the same way in both). The
/// position of an integer division by zero is left out: Lua 5.4.4 reports that of the last
/// instruction that recorded one, which may be a step of the garbage collector, whose timing
/// the checks' own allocations move (docs/plugins.md, "Known bugs of Lua 5.4.4"). Anything else, a trap or a sanitizer report is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRepair(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  var generator = ProgramGenerator(Array(UnsafeBufferPointer(start: data, count: size)))
  let source = generator.program()
  let repaired = run(source, repaired: true)
  let compiled = run(source, repaired: false)
  if repaired == compiled { return 0 }
  if case .refused(let message) = repaired, message.contains("Lua 5.4.4 compiles this bitwise operation wrongly") {
    if case .refused = compiled {} else { return 0 }
  }
  fatalError("repaired: \(repaired)\ncompiled: \(compiled)\n--- program:\n\(source)")
}

/// What a program did: its output or its error, or the load's refusal.
enum Outcome: Equatable {
  case ran(String)
  case failed(String)
  case refused(String)
}

/// Loads `source` in a fresh state with Lua's own libraries and runs it.
func run(_ source: String, repaired: Bool) -> Outcome {
  guard let L = luaL_newstate() else { fatalError("a Lua state could not be made") }
  defer { lua_close(L) }
  luaL_openlibs(L)
  var bytes = Array(source.utf8)
  let status = bytes.withUnsafeMutableBufferPointer { buffer in
    buffer.withMemoryRebound(to: CChar.self) {
      repaired
        ? waymark_load(L, $0.baseAddress, $0.count, "=program", "t")
        : luaL_loadbufferx(L, $0.baseAddress, $0.count, "=program", "t")
    }
  }
  if status != LUA_OK { return .refused(string(L)) }
  let ran = lua_pcallk(L, 0, 1, 0, 0, nil) == LUA_OK
  let output = string(L).replacing(/program:\d+: (attempt to divide by zero|attempt to perform 'n%0')/) {
    "program:?: \($0.1)"
  }
  return ran ? .ran(output) : .failed(output)
}

/// The string on top of L's stack.
func string(_ L: OpaquePointer) -> String {
  var length = 0
  guard let pointer = lua_tolstring(L, -1, &length) else { return "(\(String(cString: luaL_typename_(L))))" }
  return String(decoding: UnsafeRawBufferPointer(start: pointer, count: length), as: UTF8.self)
}

/// The type name of the value on top of L's stack.
func luaL_typename_(_ L: OpaquePointer) -> UnsafePointer<CChar> { lua_typename(L, lua_type(L, -1)) }

/// libFuzzer runs ``fuzzRepair(_:_:)`` on every input (scripts/fuzz.sh passes its options).
@main enum RepairFuzzerMain {
  static func main() {
    exit(waymark_fuzz_main(CommandLine.argc, CommandLine.unsafeArgv) { fuzzRepair($0, $1) })
  }
}
