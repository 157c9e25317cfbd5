import CFuzzDriver
import Foundation
import LuaKit
import WaymarkCore
import WaymarkScripting

/// One input of the fuzz target for the info-window content decoder: the input is a Lua chunk that
/// returns a table, as a `marker_info_window` handler would. The table goes the way a
/// handler's answer goes (``ContentConversion``, then ``InfoWindowContent/init(decoding:limits:)``)
/// and valid content is laid out as a whole window and as contents. Bad content must come
/// back as an error; a trap, a sanitizer report or a window whose size is not a finite,
/// non-negative number of points is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzContent(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let source = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  guard let state = try? LuaState(memoryLimit: 32 << 20, libraries: [.base, .string, .table, .math, .utf8]) else {
    fatalError("a Lua state could not be made")
  }
  defer { state.close() }
  state.instructionBudget = (1_000_000, .exact)
  state.timeBudget = .seconds(5)
  let stack = state.stack
  // The chunk builds a table; it may not print or read files.
  stack.pushGlobals()
  for name in ["print", "dofile", "loadfile"] {
    stack.pushNil()
    stack.rawSetField(name, ofTableAt: -2)
  }
  stack.pop()
  do {
    try stack.run(source, chunkName: "=content", results: 1)
  } catch {
    return 0
  }
  guard let value = try? ContentConversion.read(at: -1, on: stack),
    let content = try? InfoWindowContent(decoding: value)
  else { return 0 }
  for layout in [InfoWindowLayout.window(content), InfoWindowLayout.contents(content)] {
    let size = layout.size
    guard size.width.isFinite, size.height.isFinite, size.width >= 0, size.height >= 0 else {
      fatalError("content laid out as a \(size.width) x \(size.height) window")
    }
  }
  return 0
}

/// libFuzzer runs ``fuzzContent(_:_:)`` on every input (scripts/fuzz.sh passes its options).
@main enum ContentFuzzerMain {
  static func main() {
    exit(waymark_fuzz_main(CommandLine.argc, CommandLine.unsafeArgv) { fuzzContent($0, $1) })
  }
}
