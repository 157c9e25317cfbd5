import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A child process whose standard output and error are captured through pipes, read
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

  /// Starts `executable` with `arguments` (without the program name), standard input from
  /// /dev/null, in the current folder and environment.
  static func spawn(_ executable: String, _ arguments: [String]) throws(CommandFailure) -> ChildProcess {
    var outPipe: [Int32] = [-1, -1], errPipe: [Int32] = [-1, -1]
    guard pipe(&outPipe) == 0 else { throw failure("pipe") }
    guard pipe(&errPipe) == 0 else {
      close(outPipe[0])
      close(outPipe[1])
      throw failure("pipe")
    }
    // Close-on-exec: the pipes of one child must not leak into the next (the parent is the
    // only thread that starts processes, so nothing starts one in between).
    for fd in outPipe + errPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
    posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    let status = posix_spawn(&pid, executable, &actions, nil, argv, environ)
    close(outPipe[1])
    close(errPipe[1])
    guard status == 0 else {
      close(outPipe[0])
      close(errPipe[0])
      throw CommandFailure(
        message: "cannot start \(executable): \(String(cString: strerror(status)))", code: ExitCode.scriptError)
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

  /// This executable's absolute path, to start copies of it.
  static var currentExecutable: String {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard count > 0 else { return CommandLine.arguments[0] }
    return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
