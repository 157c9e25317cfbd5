/// An ordinary GeoJSON Point feature, as ``LuaStack/pointFeature(at:titleKey:snippetKey:)``
/// reads it.
package struct LuaPointFeature {
  /// The first coordinate (RFC 7946: longitude first).
  package var longitude: Double
  /// The second coordinate.
  package var latitude: Double
  /// The feature's `id`, when it is a string.
  package var id: String?
  /// The property named by the title key, when it is a string.
  package var title: String?
  /// The property named by the snippet key, when it is a string.
  package var snippet: String?
  /// Whether the feature has a table of `properties` (pushed by the read).
  package var hasProperties: Bool
}

extension LuaStack {
  /// Encodes the value at `index` as plain data (tables of booleans, numbers and strings,
  /// keyed by strings and integers; functions and threads as nil, other keys dropped) and
  /// answers the bytes and the size the host counts for it (16 bytes a value and a string
  /// key, plus the strings' bytes). Answers nil, having stopped there, for what only the
  /// host's own reader may copy or refuse: a userdata, a table nested 32 deep, more than
  /// `maxValues` values or `maxBytes` bytes. Stack: 0.
  package func encodePlain(at index: Int32, into buffer: LuaPlainBuffer, maxValues: Int, maxBytes: Int)
    -> (bytes: [UInt8], size: Int)?
  {
    LuaC.encodePlain(L, index, buffer, maxValues, maxBytes)
  }

  /// Pushes the value `bytes` encode (``encodePlain(at:into:maxValues:maxBytes:)``) and
  /// answers true; answers false, pushing nothing, for bytes that are not an encoding.
  /// Stack: +1 or 0.
  package func pushPlain(_ bytes: [UInt8]) -> Bool { LuaC.pushPlain(L, bytes) }

  /// The feature at `index` when it is an ordinary GeoJSON Point feature (`type` "Feature",
  /// a Point `geometry` with two numbers, a string or no `id`, and properties whose fields
  /// named by the strings at `titleKey` and `snippetKey` are strings or absent), its
  /// `properties` (or nil) pushed; nil, pushing nothing, for anything else: the fast path of
  /// a reader whose slow path explains what is wrong. Stack: +1 or 0.
  package func pointFeature(at index: Int32, titleKey: Int32, snippetKey: Int32) -> LuaPointFeature? {
    guard let read = LuaC.pointFeature(L, absoluteIndex(index), absoluteIndex(titleKey), absoluteIndex(snippetKey))
    else { return nil }
    return LuaPointFeature(
      longitude: read.longitude, latitude: read.latitude, id: read.id, title: read.title, snippet: read.snippet,
      hasProperties: read.hasProperties)
  }
}
