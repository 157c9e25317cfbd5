/// An ordinary GeoJSON Point feature, as ``LuaStack/pointFeature(at:keys:)``
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
  /// answers what `body` makes of the bytes (valid during the call only: copy them) and the
  /// size the host counts for them (16 bytes a value and a string key, plus the strings'
  /// bytes). Answers nil, having stopped there, for what only the host's own reader may copy
  /// or refuse: a userdata, a table nested 32 deep, more than `maxValues` values or
  /// `maxBytes` bytes. Stack: 0.
  package func encodePlain<R>(
    at index: Int32, into buffer: LuaPlainBuffer, maxValues: Int, maxBytes: Int,
    _ body: (_ bytes: UnsafeRawBufferPointer, _ size: Int) -> R
  ) -> R? {
    LuaC.encodePlain(L, index, buffer, maxValues, maxBytes, body)
  }

  /// Pushes the value `bytes` encode (``encodePlain(at:into:maxValues:maxBytes:_:)``) and
  /// answers true; answers false, pushing nothing, for bytes that are not an encoding.
  /// Stack: +1 or 0.
  package func pushPlain(_ bytes: UnsafeRawBufferPointer) -> Bool { LuaC.pushPlain(L, bytes) }

  /// Pushes the keys ``pointFeature(at:keys:)`` looks features up by: `title` and `snippet`
  /// (the properties that give a marker's title and snippet), then the GeoJSON names it
  /// needs, once for all the features of a call. Stack: +9.
  package func pushFeatureKeys(title: String, snippet: String) -> LuaFeatureKeys {
    push(title)
    let keys = LuaFeatureKeys(first: top)
    push(snippet)
    LuaC.pushFeatureKeys(L)
    return keys
  }

  /// The feature at `index` when it is an ordinary GeoJSON Point feature (`type` "Feature",
  /// a Point `geometry` with two numbers, a string or no `id`, and properties whose fields
  /// named by the title and snippet of `keys` are strings or absent), its `properties` (or
  /// nil) pushed; nil, pushing nothing, for anything else: the fast path of a reader whose
  /// slow path explains what is wrong. Stack: +1 or 0.
  package func pointFeature(at index: Int32, keys: LuaFeatureKeys) -> LuaPointFeature? {
    // Bound, not copied, out of the tuple: a copy retains (and the tuple releases) each string.
    guard
      let (longitude, latitude, id, title, snippet, hasProperties) = LuaC.pointFeature(
        L, absoluteIndex(index), keys.first)
    else { return nil }
    return LuaPointFeature(
      longitude: longitude, latitude: latitude, id: id, title: title, snippet: snippet, hasProperties: hasProperties)
  }
}

/// Where ``LuaStack/pushFeatureKeys(title:snippet:)`` pushed its keys.
package struct LuaFeatureKeys {
  /// The absolute index of the first (the title's property name); the others follow it.
  package let first: Int32
}
