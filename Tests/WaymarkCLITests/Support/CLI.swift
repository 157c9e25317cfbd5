import Foundation
import Testing

/// Runs the built `waymark` executable, as a person would, and captures what it printed.
enum CLI {
  /// The package's root folder.
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// The `waymark` executable next to the test bundle (the same build).
  static let executable: URL = {
    let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for folder in [beside, beside.deletingLastPathComponent(), root.appendingPathComponent(".build/debug")] {
      let candidate = folder.appendingPathComponent("waymark")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    }
    return root.appendingPathComponent(".build/debug/waymark")
  }()

  /// What a run printed and how it ended.
  struct Result {
    let status: Int32
    let stdout: String
    let stderr: String
  }

  /// Runs `waymark` with `arguments` in the package's root (or `directory`), with `input` on
  /// its standard input (none by default).
  static func run(
    _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:], input: String? = nil
  ) throws -> Result {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.currentDirectoryURL = directory ?? root
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    let inputPipe = Pipe()
    process.standardInput = input == nil ? FileHandle.nullDevice : inputPipe
    try process.run()
    if let input {
      inputPipe.fileHandleForWriting.write(Data(input.utf8))
      try inputPipe.fileHandleForWriting.close()
    }
    // Read both pipes to the end before waiting, so a large trace cannot block the child:
    // standard error on a thread of its own, which hands its bytes over through a lock.
    let errData = LockedData()
    let errRead = DispatchSemaphore(value: 0)
    let errReader = Thread {
      errData.set(err.fileHandleForReading.readDataToEndOfFile())
      errRead.signal()
    }
    errReader.start()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    errRead.wait()
    return Result(
      status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
      stderr: String(decoding: errData.get(), as: UTF8.self))
  }

  /// Runs a shell command line in `directory`; its status and what it printed (both streams).
  static func shell(_ command: String, in directory: URL) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command + " 2>&1"]
    process.currentDirectoryURL = directory
    let out = Pipe()
    process.standardOutput = out
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  /// A fresh temporary folder, removed by the caller.
  static func temporaryFolder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("waymark-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
  }
}

/// Bytes one thread reads and another takes, behind a lock.
private final class LockedData: @unchecked Sendable {
  private let lock = NSLock()
  private var data = Data()

  func set(_ bytes: Data) { lock.withLock { data = bytes } }

  func get() -> Data { lock.withLock { data } }
}

extension CLI {
  /// Runs `waymark ARGUMENTS` (a `--watch` command) in `folder` for two runs, calling
  /// `change` once the first run says it is watching; returns what it printed.
  static func watch(_ arguments: [String], in folder: URL, change: () throws -> Void) throws -> String {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.currentDirectoryURL = folder
    process.environment = ProcessInfo.processInfo.environment.merging(["WAYMARK_WATCH_MAX_RUNS": "2"]) { $1 }
    let out = folder.appendingPathComponent("out.txt"), err = folder.appendingPathComponent("err.txt")
    #expect(FileManager.default.createFile(atPath: out.path, contents: nil))
    #expect(FileManager.default.createFile(atPath: err.path, contents: nil))
    process.standardOutput = try FileHandle(forWritingTo: out)
    process.standardError = try FileHandle(forWritingTo: err)
    try process.run()
    defer {
      // SIGKILL, not terminate(): a child of the test process may inherit a signal mask that
      // blocks SIGTERM, and a watcher that did not stop would hang the suite.
      if process.isRunning { kill(process.processIdentifier, SIGKILL) }
      // Foundation lets go of a Process once it has seen the child end.
      process.waitUntilExit()
    }
    // A generous bound only so that a broken watcher fails instead of hanging the suite.
    func waitFor(_ condition: () -> Bool) -> Bool {
      for _ in 0..<600 {
        if condition() { return true }
        Thread.sleep(forTimeInterval: 0.05)
      }
      return false
    }
    #expect(waitFor { ((try? String(contentsOf: err, encoding: .utf8)) ?? "").contains("watching") })
    try change()
    #expect(waitFor { !process.isRunning })
    return try String(contentsOf: out, encoding: .utf8)
  }
}
