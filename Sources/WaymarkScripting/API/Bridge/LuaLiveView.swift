import LuaKit
import WaymarkCore

/// A Lua table as a live view (R34): "the table is the view". The map keeps only a
/// ``LuaRef`` to the table a plugin returned (`marker_info_window`, `marker_info_contents`) or
/// assigned (`icon_view`), and reads the table again at each frame while the marker tracks
/// changes; whatever the plugin wrote into it since shows then. One mechanism for windows and
/// icon views: only how a table is read differs.
enum LuaLiveView {
  /// A live view of the table at `index` (nil if it is not a table), read by `read` with the
  /// table at the top of the stack. Each read that draws frames is counted in the profile of
  /// the table's state, under `handler`, one call a frame (``PluginProfile``). Once the
  /// state has closed or its plugin is disabled, the view is gone (its last drawing stays).
  static func make<Value>(
    tableAt index: Int32, on stack: LuaStack, handler: String,
    read: @escaping (LuaStack, Int32) throws -> Value
  ) -> LiveView<Value>? {
    guard stack.type(at: index) == .table else { return nil }
    stack.pushValue(at: index)
    let table = stack.ref()
    return LiveView { frames in
      guard let state = table.state, let bridge = state.attachment as? LuaMapBridge, bridge.isActive else { return nil }
      let stack = state.stack
      let base = stack.top
      defer { stack.setTop(base) }
      guard stack.reserve(8) else { return nil }
      stack.push(table)
      guard let profile = bridge.profile, frames > 0 else { return try read(stack, stack.top) }
      let start = ContinuousClock.now
      defer {
        let elapsed = (ContinuousClock.now - start).components
        profile.record(
          plugin: bridge.logSource ?? "script", handler: handler, calls: frames,
          seconds: Double(elapsed.seconds) + Double(elapsed.attoseconds) * 1e-18)
      }
      return try read(stack, stack.top)
    }
  }

  /// The live view of the content table at `index` a content handler returned: read as the
  /// handler's answer is (``ContentConversion``), remembered for `map.info_window.content`.
  static func content(tableAt index: Int32, on stack: LuaStack, store: ContentStore) -> LiveView<InfoWindowContent>? {
    make(tableAt: index, on: stack, handler: "info_window redraws") { stack, table in
      let value = try ContentConversion.read(at: table, on: stack)
      let content = try InfoWindowContent(decoding: value)
      store.remember(content, as: value)
      return content
    }
  }
}
