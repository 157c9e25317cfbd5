// What the benchmarks ask of the operating system: resident memory, returning freed memory
// to the kernel, and the facts about the machine printed in the report's header.

import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Memory and machine facts, read from Linux's /proc.
enum System {
  /// The size of a memory page in bytes.
  static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

  /// The process's resident memory in bytes: the second field of /proc/self/statm (pages)
  /// times the page size; nil where /proc is missing.
  static func residentBytes() -> Int? {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else {
      return nil
    }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
    return pages * pageSize
  }

  /// Gives freed heap memory back to the kernel (glibc's `malloc_trim(0)`), so that the next
  /// resident-memory growth is not hidden by memory the allocator kept from an earlier run.
  /// `malloc_trim` is looked up at run time: `malloc.h` is not part of Swift's Glibc module.
  static func releaseFreedMemory() {
    #if canImport(Glibc)
      typealias MallocTrim = @convention(c) (Int) -> Int32
      if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") {
        _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
      }
    #endif
  }

  /// Lines describing the machine and the build, for the report's header.
  static func machineFacts(runs: Int) -> [String] {
    let info = ProcessInfo.processInfo
    let memory = Double(info.physicalMemory) / 1_073_741_824
    let load =
      (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?
      .split(separator: " ").prefix(3).joined(separator: " ") ?? "?"
    return [
      "machine: \(cpuModel()), \(info.activeProcessorCount) logical CPUs, \(String(format: "%.1f", memory)) GiB, "
        + "\(kernel()), page \(pageSize) B, load \(load)",
      "build: \(buildConfiguration), Swift \(compilerVersion); every figure is the median of \(runs) timed runs after 1 warm-up run",
    ]
  }

  /// "release" or "debug".
  static var buildConfiguration: String {
    #if DEBUG
      return "debug"
    #else
      return "release"
    #endif
  }

  /// The compiler's version, as far as `#if compiler` can tell.
  static var compilerVersion: String {
    #if compiler(>=6.4)
      return ">= 6.4"
    #elseif compiler(>=6.3)
      return "6.3"
    #elseif compiler(>=6.2)
      return "6.2"
    #else
      return "< 6.2"
    #endif
  }

  /// The CPU's model name from /proc/cpuinfo, or "unknown CPU".
  private static func cpuModel() -> String {
    guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else {
      return "unknown CPU"
    }
    for line in text.split(separator: "\n") where line.hasPrefix("model name") {
      if let colon = line.firstIndex(of: ":") {
        return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      }
    }
    return "unknown CPU"
  }

  /// The kernel's name, release and architecture from `uname`.
  private static func kernel() -> String {
    var name = utsname()
    guard uname(&name) == 0 else { return "unknown OS" }
    func field<T>(_ value: T) -> String {
      withUnsafeBytes(of: value) { bytes in
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
      }
    }
    return "\(field(name.sysname)) \(field(name.release)) \(field(name.machine))"
  }
}
