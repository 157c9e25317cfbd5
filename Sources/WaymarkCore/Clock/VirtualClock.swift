/// A clock that only moves when told to: the map's time, in seconds from its creation.
///
/// The core has one representation of time: a `Double` of virtual seconds, for instants
/// (``now``, a record's time) and durations (animations, gestures, latencies) alike.
/// Wall-clock budgets (a plugin's time budget) are `Duration`s, and live outside the core.
///
/// Tasks scheduled for the same instant run in the order they were scheduled, so a run
/// never depends on the machine. Like the embedded event loop of swift-nio, tests and
/// scripts advance it by hand.
public final class VirtualClock {
  /// A scheduled task's handle, for cancelling it.
  package struct TaskID: Hashable, Sendable {
    let value: Int
  }

  private struct Entry {
    let time: Double
    let sequence: Int
  }

  /// The longest step of time a caller may ask for at once (about 31 years), so virtual
  /// time always prints as a number.
  package static let longestStep = 1e9

  /// The longest animation, gesture, drag or marker animation, in seconds (ten minutes, the
  /// default settle limit): at 60 frames a second its 36,000 frames fit well within the
  /// ``MapView/taskLimit`` of one settle. Longer ones are refused.
  static let longestDuration = 600.0

  /// Seconds since the clock started.
  public private(set) var now: Double = 0
  private var heap: [Entry] = []
  private var actions: [Int: () -> Void] = [:]
  private var nextSequence = 0

  /// Creates a clock at time 0.
  public init() {}

  /// Whether any task is waiting.
  package var hasPendingTasks: Bool { !actions.isEmpty }

  /// How many tasks are waiting.
  package var pendingTaskCount: Int { actions.count }

  /// The time of the earliest waiting task, if any.
  package var nextTaskTime: Double? {
    while let first = heap.first, actions[first.sequence] == nil { popMinimum() }
    return heap.first?.time
  }

  /// Schedules `action` to run at `time` (at once on the next advance if `time` is past).
  @discardableResult
  package func schedule(at time: Double, _ action: @escaping () -> Void) -> TaskID {
    let entry = Entry(time: max(time, now), sequence: nextSequence)
    nextSequence += 1
    actions[entry.sequence] = action
    heap.append(entry)
    siftUp(heap.count - 1)
    return TaskID(value: entry.sequence)
  }

  /// Cancels a waiting task; nothing happens if it already ran.
  package func cancel(_ task: TaskID) {
    actions[task.value] = nil
  }

  /// Whether a task is still waiting.
  package func isPending(_ task: TaskID) -> Bool { actions[task.value] != nil }

  /// Moves time forward to `time`, running every task due until then in order; a task may
  /// schedule more, and those due before `time` run too. Unbounded: the map's
  /// ``MapView/advance(by:)`` and ``MapView/settle(limit:)`` run tasks one at a time with
  /// ``runNextTask(dueBy:)`` and count them.
  package func advance(to time: Double) {
    while runNextTask(dueBy: time) {}
    now = max(now, time)
  }

  /// Runs the earliest waiting task if it is due by `time` (any time when not given), moving
  /// ``now`` to its time; returns false, doing nothing, when none is.
  package func runNextTask(dueBy time: Double = .infinity) -> Bool {
    guard let next = nextTaskTime, next <= time else { return false }
    let entry = heap[0]
    popMinimum()
    let action = actions.removeValue(forKey: entry.sequence)
    now = max(now, entry.time)
    action?()
    return true
  }

  private func popMinimum() {
    let last = heap.removeLast()
    guard !heap.isEmpty else { return }
    heap[0] = last
    siftDown(0)
  }

  private func precedes(_ a: Entry, _ b: Entry) -> Bool {
    a.time < b.time || (a.time == b.time && a.sequence < b.sequence)
  }

  private func siftUp(_ index: Int) {
    var child = index
    while child > 0 {
      let parent = (child - 1) / 2
      guard precedes(heap[child], heap[parent]) else { return }
      heap.swapAt(child, parent)
      child = parent
    }
  }

  private func siftDown(_ index: Int) {
    var parent = index
    while true {
      let left = 2 * parent + 1, right = left + 1
      var smallest = parent
      if left < heap.count, precedes(heap[left], heap[smallest]) { smallest = left }
      if right < heap.count, precedes(heap[right], heap[smallest]) { smallest = right }
      guard smallest != parent else { return }
      heap.swapAt(parent, smallest)
      parent = smallest
    }
  }
}
