/// How the map behaves where Google's documentation is silent or platforms differ: every
/// **[chosen]** rule of the map semantics is a named setting here, with the rule's default
/// (R33 presets: ``ios``, ``android``, ``web``).
public struct BehaviorPolicy: Hashable, Sendable {
  /// What a tap on the already selected marker does (R10.2).
  package enum Retap: String, Hashable, Sendable {
    /// Its window closes and reopens (did_close_info_window, then resolution again).
    case reopen
    /// Nothing changes.
    case keep
  }

  /// The preset's name: "ios", "android", "web" or "custom".
  public var name: String
  /// R10: whether a marker tap not handled by the delegate selects the marker and shows its
  /// window (false under the web policy: no default behaviour).
  package var selectOnMarkerTap = true
  /// R10.2: what a tap on the selected marker does.
  package var retap = Retap.reopen
  /// R10.4: whether selecting by tap animates the camera's target to the marker.
  package var centerOnSelect = true
  /// R11: whether setting `selectedMarker` from code moves the camera.
  package var centerOnProgrammaticSelect = false
  /// R33 android: the open window closes before did_tap_marker runs.
  package var closeWindowBeforeMarkerTap = false
  /// R33 android: repeated taps on overlapping markers cycle through them (by z-index,
  /// then distance from the tap).
  package var cycleOverlappingMarkers = false
  /// R8: whether a marker with no window still becomes the selected marker.
  package var selectMarkerWithoutWindow = true
  /// R4: whether markers at opacity 0 can be tapped.
  package var tapTransparentMarkers = true
  /// R4, R44: whether a flat marker's rectangle turns with the map's bearing and is
  /// foreshortened by its tilt (as it is drawn on the ground); false hit-tests and draws it
  /// like a billboard.
  package var flatMarkersFollowBearing = true
  /// R45: how long a marker's appear animation (pop, fade in) plays, in seconds.
  package var appearDuration = 0.5
  /// R45: whether a marker can be tapped while its appear animation plays.
  package var tapAppearingMarkers = true
  /// R5: whether markers win over non-marker overlays.
  package var markersAboveOverlays = true
  /// R14, R15, R17: whether taps on the map, an overlay or a POI deselect the selected marker.
  package var deselectOnMapTap = true
  /// R17: whether a POI tap deselects (only when ``deselectOnMapTap`` is set too).
  package var deselectOnPOITap = true
  /// R33 web: a POI tap shows a default window with the POI's name unless the delegate
  /// returns true from did_tap_poi.
  package var showPOIWindow = false
  /// R24: whether an explicit camera move reports idle_at_camera_position at the next frame
  /// tick (true) or at once, right after its did_change_camera_position (false).
  package var idleOnNextFrame = true
  /// R26: whether camera channels animate independently (a new animation replaces only the
  /// channels it moves); false makes every new animation stop all running ones first, as
  /// Android's `animateCamera` does.
  package var independentCameraChannels = true
  /// R65: how a cluster manager rounds the camera zoom and how far its distance algorithm
  /// searches: google-maps-ios-utils' (rounded, ±distance) or android-maps-utils' (truncated,
  /// ±distance/2).
  package var clustering = ClusteringConventions.ios
  /// R27: the duration of a code-driven camera animation without its own, in seconds.
  package var animationDuration = 0.3
  /// R27: camera frames per second on the virtual clock.
  package var frameRate = 60.0
  /// R27: the easing of camera animations.
  package var easing = Easing.easeInOut
  /// R66: whether the camera target bounds hold moves made by code too (an explicit move or
  /// an animation ends with its target clamped into them, and bounds set around a camera
  /// outside them move it in at once), as the JavaScript API's `restriction` holds every
  /// move; false: only gestures, as `GMSMapView.cameraTargetBounds` says.
  package var targetBoundsHoldCodeMoves = false
  /// R21: the zoom range of a new map.
  package var minZoom = 2.0
  /// R21: the zoom range of a new map.
  package var maxZoom = 21.0
  /// R31: seconds of virtual time between a new tile set and its loading.
  package var tileLoadLatency = 0.25
  /// R18: the frames per second of a drag's did_drag_marker (the finger's sampling rate).
  package var dragFrameRate = 60.0
  /// R15: how many points either side of a thin polyline still hit it.
  package var lineTapTolerance = 8.0
  /// R17: how many points around a POI's location a tap reaches.
  package var poiTapRadius = 16.0
  /// R32: how many points around the my-location dot a tap reaches.
  package var myLocationTapRadius = 12.0

  /// Google Maps SDK for iOS: the rules as written (the default).
  public static let ios = BehaviorPolicy(name: "ios")

  /// Google Maps SDK for Android (R33): the window closes before did_tap_marker; overlapping
  /// markers cycle on repeated taps.
  public static let android: BehaviorPolicy = {
    var policy = BehaviorPolicy(name: "android")
    policy.closeWindowBeforeMarkerTap = true
    policy.cycleOverlappingMarkers = true
    policy.clustering = .android
    return policy
  }()

  /// Google Maps JavaScript API (R33): a marker tap has no default behaviour; a POI tap
  /// shows a default window unless the delegate stops it.
  public static let web: BehaviorPolicy = {
    var policy = BehaviorPolicy(name: "web")
    policy.selectOnMarkerTap = false
    policy.centerOnSelect = false
    policy.showPOIWindow = true
    policy.targetBoundsHoldCodeMoves = true
    return policy
  }()

  /// The presets by name.
  package static let presets: [String: BehaviorPolicy] = ["ios": .ios, "android": .android, "web": .web]

  /// Creates a policy with the iOS defaults under another name.
  package init(name: String) { self.name = name }

  /// Throws unless the numeric settings are usable.
  package func validated() throws(MapError) -> BehaviorPolicy {
    try MapError.requireDuration(animationDuration, "policy.animationDuration")
    try MapError.requireDuration(appearDuration, "policy.appearDuration")
    for (field, rate) in [("policy.frameRate", frameRate), ("policy.dragFrameRate", dragFrameRate)] {
      try MapError.requireFinite(rate, field)
      guard rate >= 1 && rate <= 1000 else {
        throw .invalidValue(field: field, value: formatNumber(rate), reason: "is outside 1...1000")
      }
    }
    try MapError.requireFinite(tileLoadLatency, "policy.tileLoadLatency")
    for (field, zoom) in [("policy.minZoom", minZoom), ("policy.maxZoom", maxZoom)] {
      try MapError.require(zoom, in: CameraPosition.zoomLimits, field)
    }
    guard minZoom <= maxZoom else {
      throw .invalidRelation(
        field: "policy.minZoom", value: formatNumber(minZoom), relation: "is greater than", other: "policy.maxZoom",
        otherValue: formatNumber(maxZoom))
    }
    return self
  }
}
