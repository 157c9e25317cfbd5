import WaymarkCore

/// A callback scheduled on the map's clock (`map:after`), cancellable from Lua.
final class LuaTimer {
  /// The clock task.
  var task: VirtualClock.TaskID?
  /// Whether it still waits.
  var isPending: Bool { task != nil }
  init() {}
}
