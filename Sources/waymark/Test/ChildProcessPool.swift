import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Runs jobs in forked child processes, at most ``parallel`` at a time, each watched from
/// here: one that runs past its time or grows past its memory is killed, and a crash, a hang
/// or a leak in one never touches the others.
struct ChildProcessPool {
  /// Why the pool stopped a child.
  enum Stop: Equatable {
    /// It ran longer than the time limit.
    case timedOut(seconds: Double)
    /// Its resident memory passed the limit.
    case memory(bytes: Int)
  }

  /// How many children run at once.
  let parallel: Int
  /// Wall-clock seconds a child may run.
  let timeLimit: Double
  /// Resident bytes a child may hold.
  let memoryLimit: Int

  /// Runs `count` jobs, each in its own child (`job(index)` runs there, and what it returns
  /// is the child's standard output), in order as slots free up, and calls `finished` (on
  /// this thread) as each ends, with its index, the child and why the pool stopped it (nil
  /// when it ended by itself); once `finished` returns false, no more jobs start (those
  /// running end as they would).
  func run(
    _ count: Int, job: (_ index: Int) -> [UInt8],
    finished: (_ index: Int, _ child: ChildProcess, _ stop: Stop?) -> Bool
  ) throws(CommandFailure) {
    var starts = true
    var next = 0
    var running: [(index: Int, child: ChildProcess, stop: Stop?)] = []
    defer {
      for entry in running {  // only on an error: leave no child behind
        entry.child.kill()
        _ = entry.child.reap(blocking: true)
      }
    }
    while (starts && next < count) || !running.isEmpty {
      while starts, running.count < max(1, parallel), next < count {
        let open = running.flatMap { [$0.child.outputFD, $0.child.errorFD] }.filter { $0 >= 0 }
        let index = next
        running.append((index, try ChildProcess.fork(closing: open) { job(index) }, nil))
        next += 1
      }
      var fds = running.flatMap { [$0.child.outputFD, $0.child.errorFD] }.filter { $0 >= 0 }.map {
        pollfd(fd: $0, events: Int16(POLLIN), revents: 0)
      }
      // A child whose pipes have both closed is ending: it is reaped within a millisecond,
      // not after a poll of nothing for the full 50 ms (with -j 1 that wait was most of the
      // run: 200 small files took 6.5 times as long as with -j 2).
      let ending = running.contains { $0.child.outputFD < 0 && $0.child.errorFD < 0 }
      _ = poll(&fds, nfds_t(fds.count), ending ? 1 : 50)
      var still: [(index: Int, child: ChildProcess, stop: Stop?)] = []
      for var entry in running {
        let child = entry.child
        for fd in [child.outputFD, child.errorFD] where fd >= 0 { child.drain(fd) }
        if entry.stop == nil {
          let seconds = (ContinuousClock.now - child.started).seconds
          if seconds > timeLimit {
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
          starts = finished(entry.index, child, entry.stop) && starts
        } else {
          still.append(entry)
        }
      }
      running = still
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
