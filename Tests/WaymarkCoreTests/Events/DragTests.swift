import Testing
import WaymarkCore
import WaymarkTesting

@Suite struct DragTests {
  @Test("R18: A long press on a draggable marker drags") func aLongPressOnADraggableMarkerDrags() throws {
    // R18: did_begin_dragging_marker, did_drag_marker each frame with the position already
    // updated, did_end_dragging_marker; no long press callback and no selection change.
    let fixture = try MapFixture(Places.sydney, zoom: 10)
    var options = MarkerOptions(position: Places.sydney, id: "pin", title: "Pin")
    options.draggable = true
    let pin = try fixture.map.addMarker(options)
    try fixture.quiet()
    var positions: [Coordinate] = []
    let recorder = DragRecorder { positions.append($0.position) }
    fixture.map.delegate = recorder
    let destination = Coordinate(latitude: -33.9, longitude: 151.25)
    try fixture.map.drag(pin, to: destination, duration: 0.5)
    try fixture.map.settle()
    #expect(recorder.calls.first == "did_begin_dragging_marker")
    #expect(recorder.calls.last == "did_end_dragging_marker")
    #expect(recorder.calls.filter { $0 == "did_drag_marker" }.count == 30, "frames 1 ... 30 at 60 per second")
    #expect(!recorder.calls.contains("did_long_press_at_coordinate"))
    #expect(pin.position == destination && positions.last == destination)
    #expect(positions.count == 30 && positions[15] != positions[0])
    #expect(fixture.map.selectedMarker == nil)
    #expect(fixture.map.topmostMarker(at: fixture.map.iconCenter(of: pin)!) === pin)
  }

  @Test("R19: A long press on a fixed marker or the map is a long press")
  func aLongPressOnAFixedMarkerOrTheMapIsALongPress() throws {
    // R19: a long press on a non-draggable marker or on the map fires did_long_press_at_coordinate.
    let fixture = try MapFixture(Places.sydney, zoom: 10)
    let fixed = try fixture.marker("fixed", at: Places.sydney)
    try fixture.map.longPress(fixed)
    try fixture.map.longPress(at: Point(x: 20, y: 20))
    try fixture.map.drag(fixed, to: Places.melbourne)
    #expect(fixture.delegate.events == Array(repeating: "did_long_press_at_coordinate", count: 3))
    #expect(fixed.position == Places.sydney)
  }

  @Test func aLongPressWithoutMovementBeginsAndEndsADrag() throws {
    let fixture = try MapFixture(Places.sydney, zoom: 10)
    var options = MarkerOptions(position: Places.sydney, id: "pin")
    options.draggable = true
    let pin = try fixture.map.addMarker(options)
    try fixture.map.longPress(pin)
    #expect(fixture.delegate.events == ["did_begin_dragging_marker(pin)", "did_end_dragging_marker(pin)"])
  }
}

private final class DragRecorder: MapViewDelegate {
  var calls: [String] = []
  let onDrag: (Marker) -> Void
  init(onDrag: @escaping (Marker) -> Void) { self.onDrag = onDrag }
  func mapView(_ mapView: MapView, didBeginDragging marker: Marker) { calls.append("did_begin_dragging_marker") }
  func mapView(_ mapView: MapView, didDrag marker: Marker) {
    calls.append("did_drag_marker")
    onDrag(marker)
  }
  func mapView(_ mapView: MapView, didEndDragging marker: Marker) { calls.append("did_end_dragging_marker") }
  func mapView(_ mapView: MapView, didLongPressAt coordinate: Coordinate) {
    calls.append("did_long_press_at_coordinate")
  }
}
