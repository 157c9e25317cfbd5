import Foundation
import Glibc
import Testing

@testable import LuaKit

/// The watchdog stops a call by signalling the OS thread that runs it, whose own handler arms
/// the stop (no other thread touches a running state). These tests move calls between
/// threads, block signals, nest states and fork, the cases where a signal could go astray.
@Suite struct LuaWatchdogThreadTests {
  static let budget = Duration.milliseconds(50)
  /// "It stopped at all" (machines are noisy): far above the budget, far below a hang.
  static let sanityBound = Duration.seconds(20)

  /// A LuaState handed to one other thread at a time (the tests join before touching it).
  final class Handoff: @unchecked Sendable {
    let state: LuaState
    var error: LuaError?
    init(_ state: LuaState) { self.state = state }
  }

  /// Runs `body` on a new thread and waits for it, at most `sanityBound` (a runaway never
  /// stopped fails the test instead of hanging the suite). With `blockingSignals`, the
  /// thread blocks every signal first, as the threads of dispatch queues and Swift
  /// concurrency do.
  @discardableResult
  static func onNewThread(blockingSignals: Bool, _ body: @escaping @Sendable () -> Void) -> Bool {
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      if blockingSignals {
        var all = sigset_t()
        sigfillset(&all)
        pthread_sigmask(SIG_BLOCK, &all, nil)
      }
      body()
      done.signal()
    }
    thread.start()
    if done.wait(timeout: .now() + .seconds(20)) == .timedOut {
      Issue.record("a runaway on another thread was never stopped")
      return false
    }
    return true
  }

  /// Runs an endless loop on `handoff`'s state and keeps the error it ends with.
  static func runAway(_ handoff: Handoff, _ loop: String = "while true do end") {
    do {
      try handoff.state.stack.run(loop, chunkName: "@plugins/loop.lua")
    } catch {
      handoff.error = error
    }
  }

  @Test func aThreadThatBlockedEverySignalIsStillStopped() throws {
    let state = try LuaState()
    state.timeBudget = Self.budget
    let handoff = Handoff(state)
    let start = ContinuousClock.now
    Self.onNewThread(blockingSignals: true) { Self.runAway(handoff) }
    #expect(ContinuousClock.now - start < Self.sanityBound)
    #expect(handoff.error?.kind == .timeout)
    #expect(!state.isHookArmed)
  }

  /// The signal comes wherever the thread is, inside malloc and free too: a loop that spends
  /// its time freeing megabytes (under ThreadSanitizer, whose runtime the signal then
  /// interrupts, a handler that entered it deadlocked every time).
  @Test func aLoopThatAllocatesIsStoppedWhereverTheSignalLands() throws {
    let state = try LuaState()
    state.timeBudget = Self.budget
    let handoff = Handoff(state)
    for _ in 0..<20 {
      handoff.error = nil
      let allocating = "local s while true do s = string.rep('x', 1 << 20) end"
      guard Self.onNewThread(blockingSignals: false, { Self.runAway(handoff, allocating) }) else { return }
      #expect(handoff.error?.kind == .timeout)
    }
    #expect(!state.isHookArmed)
  }

  @Test func aStateStoppedOnOneThreadIsStoppedOnTheNextToo() throws {
    let state = try LuaState()
    state.timeBudget = Self.budget
    let handoff = Handoff(state)
    for blocking in [false, true, false] {
      handoff.error = nil
      // A thread still running it would share the state with the next: stop there.
      guard Self.onNewThread(blockingSignals: blocking, { Self.runAway(handoff) }) else { return }
      #expect(handoff.error?.kind == .timeout)
    }
    Self.runAway(handoff)  // and on the test's own thread
    #expect(handoff.error?.kind == .timeout)
    #expect(!state.isHookArmed)
  }

  @Test func runawaysOnFourThreadsAtOnceAreEachStopped() throws {
    let handoffs = try (0..<4).map { _ in
      let state = try LuaState()
      state.timeBudget = Self.budget
      return Handoff(state)
    }
    let group = DispatchGroup()
    for handoff in handoffs {
      group.enter()
      Thread {
        Self.runAway(handoff)
        group.leave()
      }.start()
    }
    if group.wait(timeout: .now() + .seconds(20)) == .timedOut {
      Issue.record("a runaway of four at once was never stopped")
      return
    }
    for handoff in handoffs {
      #expect(handoff.error?.kind == .timeout)
      #expect(!handoff.state.isHookArmed)
    }
  }

  /// A handler of one state calls into a second state on the same thread: each call is on
  /// the thread's list of budgeted calls, and each is stopped by its own budget.
  @Test func nestedStatesOnOneThreadAreEachStoppedByTheirOwnBudget() throws {
    let outer = try LuaState()
    outer.timeBudget = .milliseconds(400)
    let inner = try LuaState()
    inner.timeBudget = Self.budget
    var innerErrors: [LuaError.Kind] = []
    outer.stack.pushGlobals()
    outer.stack.register("call_inner", inTableAt: -1) { _ in
      do {
        try inner.stack.run("while true do end", chunkName: "@plugins/inner.lua")
      } catch let error as LuaError {
        innerErrors.append(error.kind)
      }
      return 0
    }
    outer.stack.pop()
    let error = try #require(throws: LuaError.self) {
      try outer.stack.run("while true do call_inner() end", chunkName: "@plugins/outer.lua")
    }
    #expect(error.kind == .timeout)
    #expect(error.message.contains("time budget of 400 ms exceeded"))
    #expect(!innerErrors.isEmpty && innerErrors.allSatisfy { $0 == .timeout })
    #expect(!outer.isHookArmed && !inner.isHookArmed)
  }

  /// Whether this process runs under ThreadSanitizer, which ends a forked child of a
  /// multithreaded process that starts a thread (exit code 66).
  static let threadSanitized = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__tsan_init") != nil

  /// A forked child has other thread ids and no watchdog thread: a state it inherited must
  /// still be stopped there (the test runner forks its workers).
  @Test(.disabled(if: threadSanitized, "ThreadSanitizer forbids a thread in a forked child"))
  func aStateInheritedByAForkedChildIsStoppedThere() throws {
    let state = try LuaState()
    state.timeBudget = Self.budget
    #expect(throws: LuaError.self) { try state.stack.run("while true do end") }  // watchdog up
    let pid = Glibc.fork()
    if pid == 0 {
      var stopped = false
      do { try state.stack.run("while true do end") } catch { stopped = error.kind == .timeout }
      _exit(stopped ? 0 : 1)
    }
    try #require(pid > 0)
    var status: Int32 = 0
    let deadline = ContinuousClock.now + Self.sanityBound
    while waitpid(pid, &status, WNOHANG) == 0 {
      if ContinuousClock.now > deadline {
        kill(pid, SIGKILL)
        waitpid(pid, &status, 0)
        Issue.record("the forked child's runaway was never stopped")
        return
      }
      usleep(10_000)
    }
    #expect(status == 0, "the child's call ended otherwise than by its time budget")
  }
}
