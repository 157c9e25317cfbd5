import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A forked child process whose standard output and error are captured through pipes, read
/// without blocking by ``ChildProcessPool``.
final class ChildProcess {
  /// How a child ended.
  enum Ending: Equatable {
    /// It exited with this status.
    case exited(Int32)
    /// A signal killed it.
    case signaled(Int32)
  }

  /// The process id.
  let pid: pid_t
  /// When it started.
  let started = ContinuousClock.now
  /// What it wrote to standard output (at most ``outputLimit`` bytes).
  private(set) var output: [UInt8] = []
  /// The last ``errorTail`` bytes it wrote to standard error.
  private(set) var errors: [UInt8] = []
  /// Whether it wrote more than ``outputLimit`` bytes to standard output.
  private(set) var outputOverflowed = false
  /// The pipes' read ends still open (-1 once closed).
  private(set) var outputFD: Int32, errorFD: Int32
  /// How it ended, once reaped.
  var ending: Ending?

  /// The most a child may write to standard output (its result) before the rest is dropped.
  static let outputLimit = 256 << 20
  /// How much of its standard error is kept (the end, where crash messages are).
  static let errorTail = 16 << 10

  private init(pid: pid_t, outputFD: Int32, errorFD: Int32) {
    self.pid = pid
    self.outputFD = outputFD
    self.errorFD = errorFD
  }

  /// Runs `body` in a forked copy of this process, its standard output and error going to
  /// pipes read here (and its standard input from /dev/null); what `body` returns is
  /// written to its standard output, then it exits. Each child is a fresh copy-on-write
  /// image of this process at the fork: what one does (crash, hang, leak) reaches no other,
  /// and it starts in a fraction of the time an `exec` of the program takes. Call it only
  /// from a single-threaded process: a fork copies only the calling thread. `inherited`
  /// are descriptors of this process the child must not keep (other children's pipes).
  static func fork(closing inherited: [Int32], _ body: () -> [UInt8]) throws(CommandFailure) -> ChildProcess {
    var outPipe: [Int32] = [-1, -1], errPipe: [Int32] = [-1, -1]
    guard pipe(&outPipe) == 0 else { throw failure("pipe") }
    guard pipe(&errPipe) == 0 else {
      close(outPipe[0])
      close(outPipe[1])
      throw failure("pipe")
    }
    let pid = Glibc.fork()
    if pid == 0 {
      let null = open("/dev/null", O_RDONLY)
      dup2(null, 0)
      dup2(outPipe[1], 1)
      dup2(errPipe[1], 2)
      for fd in inherited + outPipe + errPipe + [null] where fd > 2 { close(fd) }
      let output = body()
      var written = 0
      while written < output.count {
        let count = output[written...].withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
        if count < 0, errno == EINTR { continue }
        if count <= 0 { _exit(3) }
        written += count
      }
      _exit(0)
    }
    close(outPipe[1])
    close(errPipe[1])
    guard pid > 0 else {
      close(outPipe[0])
      close(errPipe[0])
      throw failure("fork")
    }
    for fd in [outPipe[0], errPipe[0]] { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
    return ChildProcess(pid: pid, outputFD: outPipe[0], errorFD: errPipe[0])
  }

  private static func failure(_ what: String) -> CommandFailure {
    CommandFailure(
      message: "cannot start a test process: \(what): \(String(cString: strerror(errno)))", code: ExitCode.scriptError)
  }

  /// Reads what is available on `fd` (one of the two pipes) without blocking; closes it at
  /// its end.
  func drain(_ fd: Int32) {
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if count > 0 {
        append(buffer[..<count], from: fd)
        continue
      }
      if count < 0, errno == EINTR { continue }
      if count < 0, errno == EAGAIN || errno == EWOULDBLOCK { return }
      close(fd)  // the end of the pipe, or an error reading it
      if fd == outputFD { outputFD = -1 } else { errorFD = -1 }
      return
    }
  }

  /// Reads what is left in both pipes (once the process has ended, all it wrote is there)
  /// and closes them, even if something the process started still holds them open.
  func finishReading() {
    for fd in [outputFD, errorFD] where fd >= 0 {
      drain(fd)
      if fd == outputFD || fd == errorFD {
        close(fd)
        if fd == outputFD { outputFD = -1 } else { errorFD = -1 }
      }
    }
  }

  private func append(_ bytes: ArraySlice<UInt8>, from fd: Int32) {
    if fd == outputFD {
      if output.count + bytes.count > Self.outputLimit {
        outputOverflowed = true
      } else {
        output += bytes
      }
    } else {
      errors += bytes
      if errors.count > 2 * Self.errorTail { errors.removeFirst(errors.count - Self.errorTail) }
    }
  }

  /// The resident memory of the process in bytes (from /proc), nil once it is gone.
  var residentBytes: Int? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/statm", encoding: .utf8) else { return nil }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
  }

  /// Reaps the process if it has ended; returns whether it has.
  func reap(blocking: Bool = false) -> Bool {
    if ending != nil { return true }
    var status: Int32 = 0
    var result: pid_t
    repeat { result = waitpid(pid, &status, blocking ? 0 : WNOHANG) } while result < 0 && errno == EINTR
    guard result == pid else { return false }
    ending = status & 0x7F == 0 ? .exited((status >> 8) & 0xFF) : .signaled(status & 0x7F)
    return true
  }

  /// Kills the process (SIGKILL).
  func kill() { _ = Glibc.kill(pid, SIGKILL) }

  /// What it wrote to standard error, as text (the end of it).
  var errorText: String {
    String(decoding: errors.suffix(Self.errorTail), as: UTF8.self)
  }

  /// The name of a signal: `SIGSEGV`, `SIGKILL`, ... or `signal N`.
  static func name(ofSignal signal: Int32) -> String {
    let names: [Int32: String] = [
      SIGSEGV: "SIGSEGV", SIGABRT: "SIGABRT", SIGKILL: "SIGKILL", SIGBUS: "SIGBUS", SIGILL: "SIGILL",
      SIGTRAP: "SIGTRAP", SIGFPE: "SIGFPE", SIGTERM: "SIGTERM", SIGINT: "SIGINT", SIGPIPE: "SIGPIPE",
    ]
    return names[signal].map { "\($0) (\(signal))" } ?? "signal \(signal)"
  }
}
