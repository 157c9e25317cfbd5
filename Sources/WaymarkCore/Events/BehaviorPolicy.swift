/// How the map behaves where Google's documentation is silent or platforms differ: every
/// **[chosen]** rule of the map semantics is a named setting here, with the rule's default
/// (R33 presets: ``ios``, ``android``, ``web``).
public struct BehaviorPolicy: Hashable, Sendable {
  /// What a tap on the already selected marker does (R10.2).
  public enum Retap: String, Hashable, Sendable {
    /// Its window closes and reopens (did_close_info_window, then resolution again).
    case reopen
    /// Nothing changes.
    case keep
  }

  /// The preset's name: "ios", "android", "web" or "custom".
  public var name: String
  /// R10: whether a marker tap not handled by the delegate selects the marker and shows its
  /// window (false under the web policy: no default behaviour).
  public var selectOnMarkerTap = true
  /// R10.2: what a tap on the selected marker does.
  public var retap = Retap.reopen
  /// R10.4: whether selecting by tap animates the camera's target to the marker.
  public var centerOnSelect = true
  /// R11: whether setting `selectedMarker` from code moves the camera.
  public var centerOnProgrammaticSelect = false
  /// R33 android: the open window closes before did_tap_marker runs.
  public var closeWindowBeforeMarkerTap = false
  /// R33 android: repeated taps on overlapping markers cycle through them (by z-index,
  /// then distance from the tap).
  public var cycleOverlappingMarkers = false
  /// R8: whether a marker with no window still becomes the selected marker.
  public var selectMarkerWithoutWindow = true
  /// R4: whether markers at opacity 0 can be tapped.
  public var tapTransparentMarkers = true
  /// R4: whether a flat marker's rectangle turns with the map's bearing (as it is drawn on
  /// the ground); false hit-tests it like a billboard.
  public var flatMarkersFollowBearing = true
  /// R5: whether markers win over non-marker overlays.
  public var markersAboveOverlays = true
  /// R14, R15, R17: whether taps on the map, an overlay or a POI deselect the selected marker.
  public var deselectOnMapTap = true
  /// R17: whether a POI tap deselects (only when ``deselectOnMapTap`` is set too).
  public var deselectOnPOITap = true
  /// R33 web: a POI tap shows a default window with the POI's name unless the delegate
  /// returns true from did_tap_poi.
  public var showPOIWindow = false
  /// R24: whether an explicit camera move reports idle_at_camera_position at the next frame
  /// tick (true) or at once, right after its did_change_camera_position (false).
  public var idleOnNextFrame = true
  /// R26: whether camera channels animate independently (a new animation replaces only the
  /// channels it moves); false makes every new animation stop all running ones first, as
  /// Android's `animateCamera` does.
  public var independentCameraChannels = true
  /// R27: the duration of a code-driven camera animation without its own, in seconds.
  public var animationDuration = 0.3
  /// R27: camera frames per second on the virtual clock.
  public var frameRate = 60.0
  /// R27: the easing of camera animations.
  public var easing = Easing.easeInOut
  /// R21: the zoom range of a new map.
  public var minZoom = 2.0
  /// R21: the zoom range of a new map.
  public var maxZoom = 21.0
  /// R31: seconds of virtual time between a new tile set and its loading.
  public var tileLoadLatency = 0.25
  /// R18: the frames per second of a drag's did_drag_marker (the finger's sampling rate).
  public var dragFrameRate = 60.0
  /// R15: how many points either side of a thin polyline still hit it.
  public var lineTapTolerance = 8.0
  /// R17: how many points around a POI's location a tap reaches.
  public var poiTapRadius = 16.0
  /// R32: how many points around the my-location dot a tap reaches.
  public var myLocationTapRadius = 12.0

  /// Google Maps SDK for iOS: the rules as written (the default).
  public static let ios = BehaviorPolicy(name: "ios")

  /// Google Maps SDK for Android (R33): the window closes before did_tap_marker; overlapping
  /// markers cycle on repeated taps.
  public static let android: BehaviorPolicy = {
    var policy = BehaviorPolicy(name: "android")
    policy.closeWindowBeforeMarkerTap = true
    policy.cycleOverlappingMarkers = true
    return policy
  }()

  /// Google Maps JavaScript API (R33): a marker tap has no default behaviour; a POI tap
  /// shows a default window unless the delegate stops it.
  public static let web: BehaviorPolicy = {
    var policy = BehaviorPolicy(name: "web")
    policy.selectOnMarkerTap = false
    policy.centerOnSelect = false
    policy.showPOIWindow = true
    return policy
  }()

  /// The presets by name.
  public static let presets: [String: BehaviorPolicy] = ["ios": .ios, "android": .android, "web": .web]

  /// Creates a policy with the iOS defaults under another name.
  public init(name: String) { self.name = name }

  /// Throws unless the numeric settings are usable.
  public func validated() throws(MapError) -> BehaviorPolicy {
    try MapError.requireNonNegative(animationDuration, "policy.animation_duration")
    for (field, rate) in [("policy.frame_rate", frameRate), ("policy.drag_frame_rate", dragFrameRate)] {
      try MapError.requireFinite(rate, field)
      guard rate >= 1 && rate <= 1000 else {
        throw .invalidValue(field: field, value: formatNumber(rate), reason: "is outside 1...1000")
      }
    }
    try MapError.requireFinite(tileLoadLatency, "policy.tile_load_latency")
    for (field, zoom) in [("policy.min_zoom", minZoom), ("policy.max_zoom", maxZoom)] {
      try MapError.require(zoom, in: CameraPosition.zoomLimits, field)
    }
    guard minZoom <= maxZoom else {
      throw .invalidValue(
        field: "policy.min_zoom", value: formatNumber(minZoom),
        reason: "is greater than max_zoom \(formatNumber(maxZoom))")
    }
    return self
  }
}
