import Foundation
import Testing

@testable import WaymarkCore

/// A `ThreadBound` value belongs to the first thread that uses it: there it reads and writes
/// as a plain value, and in debug builds a use from any other thread stops the process, so
/// the thread rule of an `@unchecked Sendable` type (`LiveView`, `PluginProfile`) is checked
/// rather than written in a comment.
@Suite struct ThreadBoundTests {
  @Test func theOwningThreadReadsAndWrites() {
    let bound = ThreadBound([1, 2])
    bound.value.append(3)
    #expect(bound.value == [1, 2, 3])
  }

  @Test func aValueMadeOnOneThreadIsOwnedByTheFirstThatUsesIt() {
    let bound = ThreadBound(0)
    let total = Self.onAnotherThread {
      bound.value += 1
      bound.value += 1
      return bound.value
    }
    #expect(total == 2)
  }

  #if DEBUG
    @Test func aUseFromAnotherThreadStopsTheProcess() async {
      await #expect(processExitsWith: .failure) {
        let bound = ThreadBound(0)
        bound.value = 1
        ThreadBoundTests.onAnotherThread { bound.value = 2 }
      }
    }

    @Test func aLiveViewReadFromAnotherThreadStopsTheProcess() async {
      await #expect(processExitsWith: .failure) {
        let view = LiveView<Int> { _ in 1 }
        _ = try? view.read(frames: 1)
        ThreadBoundTests.onAnotherThread { _ = try? view.read(frames: 1) }
      }
    }
  #endif

  /// Runs `body` on a new thread and waits for it.
  @discardableResult
  static func onAnotherThread<Answer>(_ body: @escaping () -> Answer) -> Answer? {
    nonisolated(unsafe) var answer: Answer?
    nonisolated(unsafe) let body = body
    let done = DispatchSemaphore(value: 0)
    Thread {
      answer = body()
      done.signal()
    }.start()
    done.wait()
    return answer
  }
}
