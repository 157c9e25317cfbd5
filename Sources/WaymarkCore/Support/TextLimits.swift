/// How long the strings a map keeps may be, in UTF-8 bytes: the map copies, keeps, traces
/// and lays out every one of them, so each has a bound that is checked before it is kept.
package enum TextLimits {
  /// Identifiers and names: marker and overlay ids, image and icon view names, place ids,
  /// point-of-interest and layer names, colours.
  package static let name = 1 << 10
  /// Texts people read: marker titles and snippets, overlay titles.
  package static let text = 16 << 10

  /// Throws unless `text` (if any) has at most `limit` bytes; the error names `field`.
  package static func check(_ text: String?, atMost limit: Int, _ field: @autoclosure () -> String) throws(MapError) {
    guard let text, text.utf8.count > limit else { return }
    throw .invalidValue(
      field: field(), value: "a string of \(text.utf8.count) bytes", reason: "is longer than \(limit) bytes")
  }
}
