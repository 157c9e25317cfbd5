import Foundation

/// Some fields of a camera position; the others stay as they are. Animating a change
/// animates only the channels it names (R26).
public struct CameraChange: Hashable, Sendable {
  /// The new target, or nil to keep it.
  public var target: Coordinate?
  /// The new zoom, or nil to keep it.
  public var zoom: Double?
  /// The new bearing, or nil to keep it.
  public var bearing: Double?
  /// The new tilt (viewing angle), or nil to keep it.
  public var tilt: Double?

  /// Creates a change of the given fields.
  public init(target: Coordinate? = nil, zoom: Double? = nil, bearing: Double? = nil, tilt: Double? = nil) {
    self.target = target
    self.zoom = zoom
    self.bearing = bearing
    self.tilt = tilt
  }

  /// A change to every field of `camera`.
  package init(_ camera: CameraPosition) {
    self.init(target: camera.target, zoom: camera.zoom, bearing: camera.bearing, tilt: camera.tilt)
  }
}

/// A description of a camera move (R28), like `GMSCameraUpdate`: applied at once with
/// `MapView.moveCamera(_:)` or animated with `MapView.animate(_:)`.
public enum CameraUpdate: Hashable, Sendable {
  /// Zoom in by one level.
  case zoomIn
  /// Zoom out by one level.
  case zoomOut
  /// Zoom by `delta` levels; with a point, that point stays fixed on the screen.
  case zoomBy(Double, around: Point? = nil)
  /// Zoom to a level.
  case zoomTo(Double)
  /// Move the target, and the zoom if given.
  case setTarget(Coordinate, zoom: Double? = nil)
  /// Set every field of the camera.
  case setCamera(CameraPosition)
  /// Change only the given fields.
  case change(CameraChange)
  /// Shift the centre of the view by points on the screen, x to the right, y down: the
  /// coordinate that far from the centre becomes the target, under tilt too (R51).
  case scrollBy(dx: Double, dy: Double)
  /// The greatest zoom at which `bounds` fits inside the padded view inset by `insets`
  /// (64 points on every side by default), centred; bearing and tilt reset to 0.
  case fit(CoordinateBounds, insets: EdgeInsets = EdgeInsets(top: 64, left: 64, bottom: 64, right: 64))

  /// The camera fields this update moves: animating it animates these channels only.
  func channels(from current: CameraPosition, to destination: CameraPosition) -> CameraChannels {
    switch self {
    case .change(let change):
      var set: CameraChannels = []
      if change.target != nil { set.insert(.target) }
      if change.zoom != nil { set.insert(.zoom) }
      if change.bearing != nil { set.insert(.bearing) }
      if change.tilt != nil { set.insert(.tilt) }
      return set
    case .zoomIn, .zoomOut, .zoomTo, .zoomBy(_, around: nil): return [.zoom]
    case .setCamera: return .all
    default:
      var set: CameraChannels = []
      for channel in CameraChannel.allCases where !channel.isEqual(current, destination) { set.insert(channel) }
      return set
    }
  }

  /// The camera this update leads to from the projection's camera, clamped (R20-R22) to the
  /// zoom range.
  ///
  /// Throws when a number is not finite, when fit is given empty bounds or negative insets, or when the update would lead to a camera that is not finite.
  package func destination(from projection: Projection, zoomRange: ClosedRange<Double> = CameraPosition.zoomLimits)
    throws(MapError) -> CameraPosition
  {
    let camera = try unclampedDestination(from: projection, zoomRange: zoomRange)
    guard camera.target.latitude.isFinite, camera.target.longitude.isFinite, camera.zoom.isFinite,
      camera.bearing.isFinite, camera.tilt.isFinite
    else {
      throw .invalidValue(field: "cameraUpdate", value: "\(self)", reason: "leads to a camera that is not finite")
    }
    return camera.clamped(minZoom: zoomRange.lowerBound, maxZoom: zoomRange.upperBound)
  }

  private func unclampedDestination(from projection: Projection, zoomRange: ClosedRange<Double>)
    throws(MapError) -> CameraPosition
  {
    var camera = projection.camera
    switch self {
    case .zoomIn: camera.zoom += 1
    case .zoomOut: camera.zoom -= 1
    case .zoomTo(let zoom):
      try MapError.requireFinite(zoom, "cameraUpdate.zoom")
      camera.zoom = zoom
    case .zoomBy(let delta, let point):
      try MapError.requireFinite(delta, "cameraUpdate.zoomBy")
      let zoom = min(max(camera.zoom + delta, zoomRange.lowerBound), zoomRange.upperBound)
      camera.zoom += delta
      if let point {
        _ = try point.validated("cameraUpdate.point")
        // An unchanged zoom leaves the target exactly as it is (no round trip through world points).
        if zoom != projection.camera.zoom, let fixed = projection.worldPoint(for: point) {
          // The point stays fixed for the zoom actually reached, clamping included (R28).
          let keep = exp2(projection.camera.zoom - zoom)
          let target = projection.targetWorld
          camera.target = Mercator.coordinate(
            WorldPoint(x: fixed.x - (fixed.x - target.x) * keep, y: fixed.y - (fixed.y - target.y) * keep))
        }
      }
    case .setTarget(let target, let zoom):
      camera.target = try target.validated("cameraUpdate.target")
      if let zoom {
        try MapError.requireFinite(zoom, "cameraUpdate.zoom")
        camera.zoom = zoom
      }
    case .setCamera(let position):
      camera = try position.validated("camera")
    case .change(let change):
      if let target = change.target { camera.target = try target.validated("camera.target") }
      if let zoom = change.zoom {
        try MapError.requireFinite(zoom, "camera.zoom")
        camera.zoom = zoom
      }
      if let bearing = change.bearing {
        try MapError.requireFinite(bearing, "camera.bearing")
        camera.bearing = bearing
      }
      if let tilt = change.tilt {
        try MapError.requireFinite(tilt, "camera.tilt")
        camera.tilt = tilt
      }
    case .scrollBy(let dx, let dy):
      try MapError.require(dx, in: -Point.largestMagnitude...Point.largestMagnitude, "cameraUpdate.dx")
      try MapError.require(dy, in: -Point.largestMagnitude...Point.largestMagnitude, "cameraUpdate.dy")
      guard dx != 0 || dy != 0 else { break }
      // R51: under tilt the coordinate on the screen that far from the centre becomes the
      // target (flat-map distance where that point is above the horizon).
      let shifted = Point(x: projection.center.x + dx, y: projection.center.y + dy)
      camera.target =
        camera.tilt != 0
        ? projection.coordinate(for: shifted) ?? CameraUpdate.groundScroll(from: projection, dx: dx, dy: dy)
        : CameraUpdate.groundScroll(from: projection, dx: dx, dy: dy)
    case .fit(let bounds, let insets):
      camera = try CameraUpdate.fitting(bounds, insets: insets, in: projection)
    }
    return camera
  }

  /// The target `dx`, `dy` points away from the projection's on the untilted ground plane,
  /// turned by the bearing: a scroll when the map is flat, and a pan's step (R25).
  static func groundScroll(from projection: Projection, dx: Double, dy: Double) -> Coordinate {
    let worldDX = (dx * projection.cosBearing - dy * projection.sinBearing) / projection.scale
    let worldDY = (dx * projection.sinBearing + dy * projection.cosBearing) / projection.scale
    let target = projection.targetWorld
    return Mercator.coordinate(WorldPoint(x: target.x + worldDX, y: target.y + worldDY))
  }

  /// The camera that fits `bounds` (R28): bearing and tilt 0, the greatest zoom at which the
  /// bounds fits the padded view inset by `insets`, the bounds centred in that inset area.
  /// Insets that leave less than a point either way zoom maximally out, the bounds' centre
  /// at the visual centre (R50).
  static func fitting(_ bounds: CoordinateBounds, insets: EdgeInsets, in projection: Projection) throws(MapError)
    -> CameraPosition
  {
    guard let ne = bounds.northEast, let sw = bounds.southWest else {
      throw .invalidValue(field: "cameraUpdate.fit.bounds", value: "empty", reason: "is not valid bounds")
    }
    let insets = try insets.validated("cameraUpdate.fit.padding")
    let padded = projection.paddedRect
    let north = Mercator.worldPoint(ne).y, south = Mercator.worldPoint(sw).y
    let west = Mercator.worldPoint(sw).x
    let width = bounds.longitudeSpan / 360, height = south - north
    let boundsCenter = WorldPoint(x: west + width / 2, y: (north + south) / 2)
    guard padded.width - insets.horizontal >= 1, padded.height - insets.vertical >= 1 else {
      // R50: padding larger than the view zooms maximally out (clamped to the zoom range).
      return CameraPosition(
        target: Mercator.coordinate(boundsCenter), zoom: CameraPosition.zoomLimits.lowerBound, bearing: 0, tilt: 0)
    }
    let area = Rect(
      x: padded.minX + insets.left, y: padded.minY + insets.top,
      width: padded.width - insets.horizontal, height: padded.height - insets.vertical)
    let zoomForWidth = width > 0 ? log2(area.size.width / (width * 256)) : Double.infinity
    let zoomForHeight = height > 0 ? log2(area.size.height / (height * 256)) : Double.infinity
    var zoom = min(zoomForWidth, zoomForHeight)
    if !zoom.isFinite { zoom = 21 }
    let scale = Mercator.worldSize(zoom: zoom)
    let areaCenter = Point(x: area.minX + area.size.width / 2, y: area.minY + area.size.height / 2)
    let target = WorldPoint(
      x: boundsCenter.x - (areaCenter.x - projection.center.x) / scale,
      y: boundsCenter.y - (areaCenter.y - projection.center.y) / scale)
    return CameraPosition(target: Mercator.coordinate(target), zoom: zoom, bearing: 0, tilt: 0)
  }
}

/// A set of camera channels, as bits.
struct CameraChannels: OptionSet {
  let rawValue: UInt8
  static let all: CameraChannels = [.target, .zoom, .bearing, .tilt]
  static let target = CameraChannels(.target)
  static let zoom = CameraChannels(.zoom)
  static let bearing = CameraChannels(.bearing)
  static let tilt = CameraChannels(.tilt)

  init(rawValue: UInt8) { self.rawValue = rawValue }
  init(_ channel: CameraChannel) { rawValue = 1 << channel.rawValue }

  mutating func insert(_ channel: CameraChannel) { insert(CameraChannels(channel)) }
  func contains(_ channel: CameraChannel) -> Bool { contains(CameraChannels(channel)) }
}

/// The independently animated parts of the camera (R26).
package enum CameraChannel: Int, CaseIterable, Sendable {
  /// The target coordinate.
  case target
  /// The zoom level.
  case zoom
  /// The bearing.
  case bearing
  /// The tilt (viewing angle).
  case tilt

  func isEqual(_ a: CameraPosition, _ b: CameraPosition) -> Bool {
    switch self {
    case .target: a.target == b.target
    case .zoom: a.zoom == b.zoom
    case .bearing: a.bearing == b.bearing
    case .tilt: a.tilt == b.tilt
    }
  }
}
