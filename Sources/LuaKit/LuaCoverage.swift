/// Line coverage of Lua code: while recording, every state of the process notes how often
/// each line of each file-backed chunk (loaded with a chunk name `@path`) runs, and which
/// lines hold code. Costs nothing while off; while on, a line hook runs in every call.
///
/// ```swift
/// LuaCoverage.start()
/// try state.stack.run(source, chunkName: "@plugins/tour.lua")
/// for file in LuaCoverage.stop() { print(file.path, file.hits) }
/// ```
package enum LuaCoverage {
  /// What was recorded of one file.
  package struct File: Sendable, Hashable {
    /// The chunk's path (its name without the `@`).
    package var path: String
    /// How often each line that ran, ran.
    package var hits: [Int: Int]
    /// The lines known to hold code: those of every function that was called (the lines of
    /// functions never called are not known).
    package var codeLines: Set<Int>
    /// Lines known to hold no code: inside a function that was called, but not active.
    package var emptyLines: Set<Int>
  }

  /// Starts recording afresh (what an earlier recording held is forgotten).
  package static func start() { LuaC.coverageStart() }

  /// Stops recording and returns what was recorded, by file in order of first run.
  package static func stop() -> [File] {
    LuaC.coverageStop()
    return LuaC.coverageFiles().map { file in
      var result = File(path: file.name, hits: [:], codeLines: [], emptyLines: [])
      for line in file.lines {
        if line.hits > 0 { result.hits[line.line] = line.hits }
        if line.kind == 1 { result.codeLines.insert(line.line) }
        if line.kind == 2 { result.emptyLines.insert(line.line) }
      }
      return result
    }
  }
}
