import Foundation
import Synchronization

/// A value confined to one thread, the rule of an `@unchecked Sendable` type written as code
/// rather than a comment (swift-nio's `NIOLoopBound`): the first thread that reads or writes
/// the value owns it, and in debug builds every later access checks that it is on that thread
/// and stops the process, naming the value's type, when it is not. A release build checks
/// nothing and costs what the bare value costs.
///
/// The owner is the first thread to touch the value, not the one that made it, so that a
/// value can be built on one thread and handed, before any use, to the thread that runs it
/// (a plugin host made before its map's thread starts).
package final class ThreadBound<Value>: @unchecked Sendable {
  private var storage: Value
  #if DEBUG
    /// The owning thread's identifier, 0 until the first access.
    private let owner = Atomic<UInt>(0)
  #endif

  /// `value`, owned by the first thread that uses it.
  package init(_ value: Value) {
    storage = value
  }

  /// The value; in debug builds, only on its owning thread.
  package var value: Value {
    _read {
      checkThread()
      yield storage
    }
    _modify {
      checkThread()
      yield &storage
    }
  }

  /// Stops the process (debug builds) when the caller is not on the owning thread.
  private func checkThread() {
    #if DEBUG
      let current = ThreadBound.currentThread
      let (bound, first) = owner.compareExchange(expected: 0, desired: current, ordering: .relaxed)
      if !bound, first != current {
        fatalError("ThreadBound<\(Value.self)> used on a thread other than the one that owns it")
      }
    #endif
  }

  #if DEBUG
    /// The calling thread's identifier.
    private static var currentThread: UInt {
      #if os(Linux)
        UInt(pthread_self())
      #else
        UInt(bitPattern: pthread_self())
      #endif
    }
  #endif
}
