import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A forked worker process that runs jobs one after another, sent to it by index; what each
/// job returns comes back on its standard output (standard error is captured too), both read
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
  /// When its current job was sent (or the process started).
  private(set) var started = ContinuousClock.now
  /// The job it is running, nil when idle.
  private(set) var job: Int?
  /// What it wrote to standard output and is not yet taken as a job's result.
  private(set) var output: [UInt8] = []
  /// The last ``errorTail`` bytes it wrote to standard error since its current job was sent.
  private(set) var errors: [UInt8] = []
  /// Whether a job's result was longer than ``outputLimit`` bytes.
  private(set) var outputOverflowed = false
  /// The pipes' read ends still open (-1 once closed).
  private(set) var outputFD: Int32, errorFD: Int32
  /// The socket jobs are sent on (-1 once closed).
  private(set) var jobFD: Int32
  /// How it ended, once reaped.
  var ending: Ending?

  /// The most a job may write as its result: a test file's report.
  static let outputLimit = TestReportBounds.reportBytes
  /// How much of its standard error is kept (the end, where crash messages are).
  static let errorTail = 16 << 10
  /// The bytes of a job's index, and of a result's length before it.
  private static let headerSize = MemoryLayout<Int64>.size

  private init(pid: pid_t, outputFD: Int32, errorFD: Int32, jobFD: Int32) {
    self.pid = pid
    self.outputFD = outputFD
    self.errorFD = errorFD
    self.jobFD = jobFD
  }

  /// Starts a forked copy of this process that runs `body(index)` for each job index sent to
  /// it (``send(_:)``), writing each result to its standard output after its length, until
  /// the job socket closes; its standard error goes to a pipe read here and its standard
  /// input is /dev/null. Each worker is a fresh copy-on-write image of this process at the
  /// fork: what one does (crash, hang, leak) reaches no other. Call it only from a
  /// single-threaded process: a fork copies only the calling thread. `inherited` are
  /// descriptors of this process the child must not keep (other children's).
  static func fork(closing inherited: [Int32], _ body: (Int) -> [UInt8]) throws(CommandFailure) -> ChildProcess {
    var outPipe: [Int32] = [-1, -1], errPipe: [Int32] = [-1, -1], jobs: [Int32] = [-1, -1]
    guard pipe(&outPipe) == 0 else { throw failure("pipe") }
    guard pipe(&errPipe) == 0 else {
      outPipe.forEach { close($0) }
      throw failure("pipe")
    }
    guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &jobs) == 0 else {
      (outPipe + errPipe).forEach { close($0) }
      throw failure("socketpair")
    }
    let pid = Glibc.fork()
    if pid == 0 {
      let null = open("/dev/null", O_RDONLY)
      dup2(null, 0)
      dup2(outPipe[1], 1)
      dup2(errPipe[1], 2)
      for fd in inherited + outPipe + errPipe + [jobs[0], null] where fd > 2 { close(fd) }
      serve(jobs[1], body)
    }
    close(outPipe[1])
    close(errPipe[1])
    close(jobs[1])
    guard pid > 0 else {
      [outPipe[0], errPipe[0], jobs[0]].forEach { close($0) }
      throw failure("fork")
    }
    for fd in [outPipe[0], errPipe[0]] { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
    return ChildProcess(pid: pid, outputFD: outPipe[0], errorFD: errPipe[0], jobFD: jobs[0])
  }

  /// The worker's loop: reads a job index from `socket`, runs it, writes its length and
  /// result to standard output; exits when the socket closes.
  private static func serve(_ socket: Int32, _ body: (Int) -> [UInt8]) -> Never {
    while true {
      var index: Int64 = 0
      guard readFully(socket, &index) else { _exit(0) }
      let result = body(Int(index))
      var length = Int64(result.count)
      let header = withUnsafeBytes(of: &length) { Array($0) }
      guard writeFully(1, header + result) else { _exit(3) }
    }
  }

  private static func readFully(_ fd: Int32, _ value: inout Int64) -> Bool {
    var got = 0
    return withUnsafeMutableBytes(of: &value) { bytes in
      while got < bytes.count {
        let count = read(fd, bytes.baseAddress! + got, bytes.count - got)
        if count < 0, errno == EINTR { continue }
        if count <= 0 { return false }
        got += count
      }
      return true
    }
  }

  private static func writeFully(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
    var written = 0
    while written < bytes.count {
      let count = bytes[written...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      if count <= 0 { return false }
      written += count
    }
    return true
  }

  /// Sends job `index` to the idle worker; false if it can no longer take one.
  func send(_ index: Int) -> Bool {
    var value = Int64(index)
    let sent = withUnsafeBytes(of: &value) { Glibc.send(jobFD, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    guard sent == Self.headerSize else { return false }
    job = index
    started = .now
    errors = []
    return true
  }

  /// The result of the current job once all of it has arrived: the worker is idle again.
  func takeResult() -> [UInt8]? {
    guard job != nil, output.count >= Self.headerSize else { return nil }
    let length = output.withUnsafeBytes { Int($0.loadUnaligned(as: Int64.self)) }
    guard length >= 0, length <= Self.outputLimit else {
      outputOverflowed = true
      return nil
    }
    guard output.count >= Self.headerSize + length else { return nil }
    let result = Array(output[Self.headerSize..<Self.headerSize + length])
    output.removeFirst(Self.headerSize + length)
    job = nil
    return result
  }

  /// Closes the job socket: an idle worker then exits.
  func retire() {
    if jobFD >= 0 { close(jobFD) }
    jobFD = -1
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
  /// and closes them and the job socket, even if something the process started still holds
  /// them open.
  func finishReading() {
    retire()
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
      if output.count + bytes.count > Self.outputLimit + Self.headerSize {
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
