import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Runs jobs in long-lived forked worker processes, at most ``parallel`` at once, each
/// running its jobs one after another and watched from here: one that runs a job past its
/// time or grows past its memory is killed, one that dies takes only its current job with
/// it, and the jobs after it go to a new worker; a crash, a hang or a leak never touches the
/// other jobs' results.
struct ChildProcessPool {
  /// Why the pool stopped a worker.
  enum Stop: Equatable {
    /// Its job ran longer than the time limit.
    case timedOut(seconds: Double)
    /// Its resident memory passed the limit.
    case memory(bytes: Int)
  }

  /// How one job ended.
  struct Finished {
    /// Its result, when the worker wrote all of it.
    var output: [UInt8] = []
    /// `.exited(0)` for a job whose result arrived; else how its worker ended.
    var ending: ChildProcess.Ending?
    /// Whether its result was longer than ``ChildProcess/outputLimit``.
    var outputOverflowed = false
    /// The end of what the worker wrote on standard error while it ran the job.
    var errorText = ""
    /// When the job was sent to its worker.
    var started: ContinuousClock.Instant
  }

  /// How many workers run at once.
  let parallel: Int
  /// Wall-clock seconds a job may run.
  let timeLimit: Double
  /// Resident bytes a worker may hold; one past half of it after a job is replaced, so that
  /// what a job leaves behind never counts against the next.
  let memoryLimit: Int

  /// Runs `count` jobs (`job(index)` runs in a worker, and what it returns is the job's
  /// result), in order as workers free up, and calls `finished` (on this thread) as each
  /// ends, with its index, how it ended and why the pool stopped its worker (nil when it
  /// ended by itself); once `finished` returns false, no more jobs start (those running end
  /// as they would).
  func run(
    _ count: Int, job: (_ index: Int) -> [UInt8],
    finished: (_ index: Int, _ child: Finished, _ stop: Stop?) -> Bool
  ) throws(CommandFailure) {
    var starts = true
    var next = 0
    var workers: [(child: ChildProcess, stop: Stop?)] = []
    defer {
      for entry in workers {  // idle ones exit as their socket closes; the others are killed
        if entry.child.job != nil { entry.child.kill() }
        entry.child.finishReading()
        _ = entry.child.reap(blocking: true)
      }
    }
    while true {
      for entry in workers where starts && next < count && entry.child.job == nil && entry.child.jobFD >= 0 {
        assign(&next, to: entry.child)
      }
      while starts, workers.count(where: { $0.child.jobFD >= 0 }) < max(1, parallel), next < count {
        let open = workers.flatMap { [$0.child.outputFD, $0.child.errorFD, $0.child.jobFD] }.filter { $0 >= 0 }
        let child = try ChildProcess.fork(closing: open, job)
        workers.append((child, nil))
        assign(&next, to: child)
      }
      if !starts || next == count {
        for entry in workers where entry.child.job == nil { entry.child.retire() }  // it exits
      }
      guard !workers.isEmpty else { break }
      var fds = workers.flatMap { [$0.child.outputFD, $0.child.errorFD] }.filter { $0 >= 0 }.map {
        pollfd(fd: $0, events: Int16(POLLIN), revents: 0)
      }
      // A worker whose pipes have both closed is ending: it is reaped within a millisecond,
      // not after a poll of nothing for the full 50 ms.
      let ending = workers.contains { $0.child.outputFD < 0 && $0.child.errorFD < 0 }
      _ = poll(&fds, nfds_t(fds.count), ending ? 1 : 50)
      var still: [(child: ChildProcess, stop: Stop?)] = []
      for var entry in workers {
        let child = entry.child
        // Standard error first: what the job wrote there came before its result.
        for fd in [child.errorFD, child.outputFD] where fd >= 0 { child.drain(fd) }
        if let index = child.job, entry.stop == nil, let output = child.takeResult() {
          let done = Finished(output: output, ending: .exited(0), errorText: child.errorText, started: child.started)
          starts = finished(index, done, nil) && starts
          if let resident = child.residentBytes, resident > memoryLimit / 2 { child.retire() }
        }
        if child.job != nil, entry.stop == nil {
          let seconds = (ContinuousClock.now - child.started).seconds
          if child.outputOverflowed {
            child.kill()
          } else if seconds > timeLimit {
            entry.stop = .timedOut(seconds: timeLimit)
            child.kill()
          } else if let resident = child.residentBytes, resident > memoryLimit {
            entry.stop = .memory(bytes: resident)
            child.kill()
          }
        }
        if child.reap() {
          // It has ended: what it left in the pipes is read to their end.
          child.finishReading()
          if let index = child.job {
            let result = entry.stop == nil && !child.outputOverflowed ? child.takeResult() : nil
            let ending: ChildProcess.Ending? = result != nil || child.outputOverflowed ? .exited(0) : child.ending
            let done = Finished(
              output: result ?? [], ending: ending, outputOverflowed: child.outputOverflowed,
              errorText: child.errorText, started: child.started)
            starts = finished(index, done, entry.stop) && starts
          }
        } else {
          still.append(entry)
        }
      }
      workers = still
    }
  }
}

extension ChildProcessPool {
  /// Sends job `next` to the idle `worker` and moves `next` on; a worker that cannot take it
  /// is stopped (and reaped in the loop), and the job goes to another.
  private func assign(_ next: inout Int, to worker: ChildProcess) {
    if worker.send(next) {
      next += 1
    } else {
      worker.kill()
      worker.retire()
    }
  }
}

extension Duration {
  /// The duration in seconds.
  var seconds: Double {
    let parts = components
    return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
  }
}
