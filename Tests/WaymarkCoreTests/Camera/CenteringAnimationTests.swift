import Testing
import WaymarkCore
import WaymarkTesting

/// R10.4, R23, R26: the camera's centring on a tapped marker starts from the camera as it is
/// when the tap comes (the animator takes the start's world point from the map's projection),
/// frame for frame to the last bit, whether the camera was still, just moved, or animating.
@Suite struct CenteringAnimationTests {
  /// Hears every frame: the time and the camera.
  private final class FrameRecorder: MapViewDelegate {
    var frames: [(time: Double, camera: CameraPosition)] = []
    func mapView(_ mapView: MapView, didChange position: CameraPosition) {
      frames.append((mapView.clock.now, position))
    }
  }

  /// The camera of the target animation from `start` to `destination` at `time`, computed
  /// from the two world points as R23's ease in, ease out gives it.
  private func expectedCamera(
    from start: CameraPosition, to destination: Coordinate, startTime: Double, at time: Double, policy: BehaviorPolicy
  ) -> CameraPosition {
    let progress = (time - startTime) / policy.animationDuration
    var camera = start
    guard progress < 1 else {
      camera.target = destination
      return camera.clamped(minZoom: policy.minZoom, maxZoom: policy.maxZoom)
    }
    let a = Mercator.worldPoint(start.target), b = Mercator.worldPoint(destination)
    let from = SIMD2(a.x, a.y), to = SIMD2(a.x + Mercator.wrappedDelta(from: a.x, to: b.x), b.y)
    let value = from + (to - from) * policy.easing.value(at: progress)
    camera.target = Mercator.coordinate(WorldPoint(x: value.x, y: value.y))
    return camera.clamped(minZoom: policy.minZoom, maxZoom: policy.maxZoom)
  }

  /// Taps `marker`, then checks every frame of the centring against ``expectedCamera``.
  private func tapAndCheckFrames(_ marker: Marker, on map: MapView, _ recorder: FrameRecorder) throws {
    let start = map.camera
    let startTime = map.clock.now
    recorder.frames.removeAll()
    try map.tap(marker)
    #expect(map.selectedMarker === marker)
    try map.settle()
    #expect(recorder.frames.count > 10, "the centring runs its frames")
    for frame in recorder.frames {
      let expected = expectedCamera(
        from: start, to: marker.position, startTime: startTime, at: frame.time, policy: map.policy)
      #expect(frame.camera == expected, "at \(frame.time)")
    }
    #expect(map.camera.target == marker.position)
  }

  @Test("R10.4: Centring on a marker starts from the camera as it is, after a move or a padding change")
  func centringStartsFromTheCameraAsItIs() throws {
    let map = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 5, bearing: 30))
    let recorder = FrameRecorder()
    map.delegate = recorder
    let melbourne = try map.addMarker(MarkerOptions(position: Places.melbourne, title: "Melbourne"))
    let brisbane = try map.addMarker(MarkerOptions(position: Places.brisbane, title: "Brisbane"))
    try map.settle()
    try map.moveCamera(.setCamera(CameraPosition(target: Places.melbourne, zoom: 4, bearing: 30)))
    try tapAndCheckFrames(brisbane, on: map, recorder)
    // A camera set just before the tap, with no frame between them.
    try map.moveCamera(.setCamera(CameraPosition(target: Places.sydney, zoom: 4, bearing: 200)))
    try tapAndCheckFrames(melbourne, on: map, recorder)
    // Padding moves the view's centre, not the camera's target: the start stays the target.
    try map.setPadding(EdgeInsets(top: 40, left: 10, bottom: 120, right: 30))
    try map.moveCamera(.setCamera(CameraPosition(target: Places.brisbane, zoom: 4.5)))
    try tapAndCheckFrames(melbourne, on: map, recorder)
  }

  @Test("R26: A tap during a centring replaces it from the camera of that moment")
  func aTapDuringACentringReplacesItFromTheCameraOfThatMoment() throws {
    let map = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 4))
    let recorder = FrameRecorder()
    map.delegate = recorder
    let melbourne = try map.addMarker(MarkerOptions(position: Places.melbourne, title: "Melbourne"))
    let brisbane = try map.addMarker(MarkerOptions(position: Places.brisbane, title: "Brisbane"))
    try map.settle()
    try map.tap(melbourne)
    try map.advance(by: 0.1)
    #expect(map.camera.target != Places.sydney && map.camera.target != Places.melbourne, "half way")
    try tapAndCheckFrames(brisbane, on: map, recorder)
  }
}
