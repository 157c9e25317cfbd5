import WaymarkCore

/// Remembers the Lua-side value of the content last shown, so `map.info_window.content`
/// can hand back what a handler returned (the core keeps only the decoded form).
package final class ContentStore {
  private var recent: [(content: InfoWindowContent, value: ContentValue)] = []

  /// Records that `value` decoded to `content`.
  func remember(_ content: InfoWindowContent, as value: ContentValue) {
    recent.removeAll { $0.content == content }
    recent.append((content, value))
    if recent.count > 4 { recent.removeFirst() }
  }

  /// The value that decoded to `content`, if remembered.
  func value(for content: InfoWindowContent) -> ContentValue? {
    recent.last { $0.content == content }?.value
  }
}
