import Foundation
import Testing
import WaymarkCore
import WaymarkTesting

/// R69: `GMSUISettings.compassButton`: "If enabled, it is only shown when the camera is
/// rotated away from its default orientation (bearing of 0). When a user taps the compass,
/// the camera orients itself to its default orientation and fades away shortly after."
@Suite struct CompassTests {
  @Test("R69: the compass is off by default, and when on shows only while the bearing is not 0")
  func shownOnlyWhileRotated() throws {
    let map = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 10))
    #expect(!map.settings.compassButton)
    try map.rotate(by: 30)
    try map.settle()
    #expect(!map.isCompassShown, "off by default")
    map.settings.compassButton = true
    #expect(map.isCompassShown)
    try map.moveCamera(.change(CameraChange(bearing: 0)))
    #expect(!map.isCompassShown, "facing north, it hides")
  }

  @Test("R69: a tap on the compass turns the camera to bearing 0 by an animation, and the compass hides")
  func aTapOrientsTheCameraNorth() throws {
    let fixture = try MapFixture(Places.sydney, zoom: 10)
    let map = fixture.map
    map.settings.compassButton = true
    try map.moveCamera(.change(CameraChange(bearing: 120, tilt: 20)))
    try map.settle()
    let before = map.trace.records.count
    try map.tapCompass()
    #expect(map.isCompassShown, "still shown while the camera turns")
    try map.settle()
    #expect(map.camera.bearing == 0)
    #expect(map.camera.tilt == 20, "only the bearing is the default orientation")
    #expect(!map.isCompassShown)
    let events = map.trace.records[before...].map(\.event)
    #expect(events.first == .callback(.willMove))
    #expect(map.trace.records[before].gesture == false)
    #expect(events.filter { $0 == .callback(.didChangeCameraPosition) }.count > 1, "an animation, frame by frame")
  }

  @Test("R69: a tap on a compass that is not shown does nothing but warn")
  func aTapOnAHiddenCompassDoesNothing() throws {
    let map = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 10, bearing: 40))
    try map.settle()
    try map.tapCompass()
    map.settings.compassButton = true
    try map.moveCamera(.change(CameraChange(bearing: 0)))
    try map.settle()
    let before = map.trace.records.count
    try map.tapCompass()
    try map.settle()
    #expect(map.trace.records[before...].map(\.event) == [.warning])
    #expect(map.trace.records.last?.message?.contains("the map faces north") == true)
  }
}
