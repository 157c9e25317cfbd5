/// One frame of a multi-frame icon (R48): a named image of a size in points.
public struct MarkerIconFrame: Hashable, Sendable {
  /// The image's name, for traces and renderers.
  public var name: String
  /// The frame's size in points.
  public var size: Size
  /// Creates a frame.
  public init(name: String, size: Size) {
    self.name = name
    self.size = size
  }
}

extension MarkerIcon {
  /// The frame a multi-frame icon shows at virtual time `time` (R48): frame
  /// ⌊time / (duration / count)⌋ mod count, so every marker with the same frames shows the
  /// same frame at the same time, as an animated image shared by several views does; nil
  /// for the other icons. The replay page computes the same (MapDrawingScript.swift).
  package func frame(at time: Double) -> MarkerIconFrame? {
    guard case .frames(let frames, let duration) = self, !frames.isEmpty, duration > 0 else { return nil }
    let period = duration / Double(frames.count)
    let step = (max(time, 0) / period + 1e-9).rounded(.down)
    return frames[Int(step.truncatingRemainder(dividingBy: Double(frames.count)))]
  }

  /// The largest width and height over a multi-frame icon's frames; nil for other icons.
  var largestFrameSize: Size? {
    guard case .frames(let frames, _) = self, !frames.isEmpty else { return nil }
    return Size(
      width: frames.map(\.size.width).max() ?? 0, height: frames.map(\.size.height).max() ?? 0)
  }

  /// Throws unless `frames` is not empty, each frame has a name of at most
  /// ``TextLimits/name`` bytes and a size `validateSize` accepts, and `duration` is a
  /// positive number of seconds of at most ten minutes (`marker.icon.frames[2].width: -1 is
  /// negative`).
  static func validateFrames(
    _ frames: [MarkerIconFrame], duration: Double, validateSize: (Size, String) throws(MapError) -> Void
  ) throws(MapError) {
    guard !frames.isEmpty else {
      throw .invalidValue(field: "marker.icon.frames", value: "{}", reason: "is empty (give at least one frame)")
    }
    for (index, frame) in frames.enumerated() {
      let field = "marker.icon.frames[\(index + 1)]"
      try TextLimits.check(frame.name, atMost: TextLimits.name, "\(field).image")
      try validateSize(frame.size, field)
    }
    try MapError.requireDuration(duration, "marker.icon.duration")
    guard duration > 0 else {
      throw .invalidValue(field: "marker.icon.duration", value: formatNumber(duration), reason: "is not positive")
    }
  }
}

extension Marker {
  /// The frame its multi-frame icon shows now, on its map's clock (R48); nil for other
  /// icons, and at time 0 off a map.
  package var iconFrame: MarkerIconFrame? { self.icon.frame(at: map?.clock.now ?? 0) }

  /// The largest size its icon takes: a multi-frame icon's largest frame (hit-testing's
  /// search reach covers every frame), else ``alignmentSize`` (the rectangle inside the
  /// insets, R37).
  var largestIconSize: Size {
    // Most markers: asked of the rare values in place (a key path read of the icon copies it).
    if extras.properties.rare.isPinWithoutInsets { return MarkerOptions.defaultPinSize }
    if self.iconView == nil, let size = self.icon.largestFrameSize { return size }
    return alignmentSize
  }
}
