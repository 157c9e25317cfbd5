/// Counts live instances, to prove that what is handed to Lua gets released
/// (swift-collections' lifetime tracker habit).
final class LifetimeTracker {
  private(set) var live = 0
  private(set) var created = 0

  final class Instance {
    let tracker: LifetimeTracker
    let serial: Int

    init(tracker: LifetimeTracker) {
      self.tracker = tracker
      tracker.created += 1
      tracker.live += 1
      serial = tracker.created
    }

    deinit { tracker.live -= 1 }
  }

  func make() -> Instance { Instance(tracker: self) }
}
