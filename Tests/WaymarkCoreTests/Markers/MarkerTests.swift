import Testing
import WaymarkCore
import WaymarkTesting

@Suite struct MarkerTests {
  @Test("R1: Defaults follow Google") func defaultsFollowGoogle() throws {
    // R1: every default.
    let map = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 10))
    let marker = try map.addMarker(MarkerOptions(position: Places.sydney))
    #expect(marker.title == nil && marker.snippet == nil)
    #expect(marker.icon == .defaultPin && marker.iconView == nil)
    #expect(marker.groundAnchor == Point(x: 0.5, y: 1))
    #expect(marker.infoWindowAnchor == Point(x: 0.5, y: 0))
    #expect(marker.appearAnimation == .none)
    #expect(!marker.draggable && !marker.flat)
    #expect(marker.rotation == 0 && marker.opacity == 1 && marker.zIndex == 0)
    #expect(marker.tappable && marker.userData == nil)
    #expect(marker.tracksViewChanges && !marker.tracksInfoWindowChanges)
    #expect(marker.id == "marker-1")
    #expect(try map.addMarker(MarkerOptions(position: Places.sydney)).id == "marker-2")
  }

  @Test("Copies of options are independent: the boxed icon, icon view and user data too")
  func optionCopiesAreIndependent() throws {
    final class Tag {}
    let tag = Tag()
    var original = MarkerOptions(position: Places.sydney, title: "Pin")
    original.icon = .tintedPin(color: "#00ff00")
    var copy = original
    copy.icon = .image(name: "flag", size: Size(width: 10, height: 20))
    copy.iconView = MarkerIconView(name: "badge", size: Size(width: 30, height: 30))
    copy.userData = tag
    #expect(original.icon == .tintedPin(color: "#00ff00"))
    #expect(original.iconView == nil && original.userData == nil)
    #expect(copy.icon == .image(name: "flag", size: Size(width: 10, height: 20)))
    #expect(copy.iconView?.name == "badge" && copy.userData === tag)
    var third = copy
    third.iconView?.size.width = 40
    third.userData = nil
    #expect(copy.iconView?.size.width == 30 && copy.userData === tag)
    #expect(third.iconView?.size.width == 40 && third.userData == nil)
    #expect(third.icon == copy.icon)
    // A marker made from the options keeps them; changing the options later does not reach it.
    let map = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 10))
    let marker = try map.addMarker(copy)
    copy.icon = .defaultPin
    copy.userData = nil
    #expect(marker.icon == .image(name: "flag", size: Size(width: 10, height: 20)) && marker.userData === tag)
  }

  @Test("Changing one marker at its defaults leaves the others of its map at theirs")
  func changesStayWithTheirMarker() throws {
    // Markers at their defaults share the storage of their rarely set properties.
    let map = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 10))
    let markers = try (0..<3).map { _ in try map.addMarker(MarkerOptions(position: Places.sydney, title: "Pin")) }
    let defaults = markers[2].options
    let version = markers[1].version
    try markers[0].update { options in
      options.snippet = "changed"
      options.zIndex = 5
      options.draggable = true
      options.tappable = false
      options.opacity = 0.5
    }
    #expect(markers[0].snippet == "changed" && markers[0].zIndex == 5 && markers[0].draggable)
    #expect(!markers[0].tappable && markers[0].opacity == 0.5)
    #expect(markers[1].version == version, "another marker's version did not move")
    try markers[1].update { $0.flat = true }
    #expect(markers[1].version == version + 1 && markers[1].flat && markers[1].snippet == nil && markers[1].tappable)
    for marker in [markers[2], try map.addMarker(MarkerOptions(position: Places.sydney, title: "Pin"))] {
      #expect(marker.snippet == nil && marker.zIndex == 0 && !marker.draggable && !marker.flat)
      #expect(marker.tappable && marker.opacity == 1 && marker.options.icon == defaults.icon)
    }
    try markers[0].update { options in
      let position = options.position
      options = markers[2].options
      options.position = position
    }
    #expect(markers[0].snippet == nil && markers[0].zIndex == 0 && markers[0].tappable && !markers[0].draggable)
    #expect(markers[0].id == "marker-1" && markers[2].id == "marker-3")
  }

  @Test(arguments: [
    ("opacity", "marker.opacity: 1.5 is outside 0...1"),
    ("rotation", "marker.rotation: nan is not a finite number"),
    ("position", "marker.position.latitude: 91 is outside -90...90"),
    ("icon", "marker.icon.width: -4 is negative"),
    ("anchor", "marker.groundAnchor.y: inf is not a finite number"),
    ("huge", "marker.icon.height: 20000 is larger than 10000 points"),
  ])
  func badPropertiesAreRejectedWithFieldAndValue(field: String, message: String) throws {
    let map = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 10))
    let marker = try map.addMarker(MarkerOptions(position: Places.sydney, title: "Sydney"))
    do {
      try marker.update { options in
        options.title = "changed"
        switch field {
        case "opacity": options.opacity = 1.5
        case "rotation": options.rotation = .nan
        case "position": options.position = Coordinate(latitude: 91, longitude: 0)
        case "icon": options.icon = .image(name: "plane", size: Size(width: -4, height: 4))
        case "huge": options.icon = .image(name: "banner", size: Size(width: 40, height: 20_000))
        default: options.groundAnchor = Point(x: 0.5, y: .infinity)
        }
      }
      Issue.record("no error for \(field)")
    } catch let error as MapError {
      #expect(error.description == message)
    }
    #expect(marker.title == "Sydney", "nothing is half-applied")
    #expect(map.numberOfMarkers == 1)
  }

  @Test("R2: A marker is on at most one map") func aMarkerIsOnAtMostOneMap() throws {
    // R2: on at most one map; removing hides it; adding again shows it.
    let a = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 10))
    let b = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 10))
    let marker = try a.addMarker(MarkerOptions(position: Places.sydney, id: "sydney"))
    #expect(throws: MapError.markerOnAnotherMap(marker: "sydney")) { try b.add(marker) }
    try a.remove(marker)
    #expect(marker.map == nil && a.numberOfMarkers == 0)
    #expect(a.marker(id: "sydney") == nil)
    try b.add(marker)
    #expect(marker.map === b && b.marker(id: "sydney") === marker)
    #expect(throws: MapError.notOnThisMap(what: "marker sydney")) { try a.remove(marker) }
  }

  @Test("R2: Clear removes every marker and overlay") func clearRemovesEveryMarkerAndOverlay() throws {
    // R2: clear() removes every marker and overlay.
    let map = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 10))
    let marker = try map.addMarker(MarkerOptions(position: Places.sydney))
    let circle = try map.addOverlay(OverlayOptions(shape: .circle(center: Places.sydney, radius: 100)))
    map.clear()
    #expect(map.numberOfMarkers == 0 && map.overlays.isEmpty && map.markers.isEmpty)
    #expect(marker.map == nil && circle.map == nil)
    #expect(map.topmostMarker(at: map.iconCenterForTest(Places.sydney)) == nil)
  }

  @Test("R3: Icon view wins over icon which wins over the pin") func iconViewWinsOverIconWhichWinsOverThePin() throws {
    // R3: icon_view > icon > default pin; a tinted pin is an icon of the pin's size.
    var options = MarkerOptions(position: Places.sydney)
    #expect(options.iconSize == MarkerOptions.defaultPinSize)
    options.icon = .tintedPin(color: "#00ff00")
    #expect(options.iconSize == MarkerOptions.defaultPinSize)
    options.icon = .image(name: "plane", size: Size(width: 40, height: 40))
    #expect(options.iconSize == Size(width: 40, height: 40))
    options.iconView = MarkerIconView(name: "badge", size: Size(width: 100, height: 20))
    #expect(options.iconSize == Size(width: 100, height: 20))
  }

  @Test func idsAreUniquePerMap() throws {
    let map = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 10))
    try map.addMarker(MarkerOptions(position: Places.sydney, id: "x"))
    #expect(
      throws: MapError.invalidValue(
        field: "marker.id", value: "\"x\"", reason: "is already used by another marker on this map")
    ) {
      try map.addMarker(MarkerOptions(position: Places.melbourne, id: "x"))
    }
    #expect(map.numberOfMarkers == 1)
  }

  @Test func positionAnimationMovesTheMarkerAtConstantSpeed() throws {
    // S3 needs animated marker positions.
    let map = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 5))
    let marker = try map.addMarker(MarkerOptions(position: Places.sydney))
    var finished: [Bool] = []
    try map.animate(marker, to: Places.melbourne, duration: 2) { finished.append($0) }
    try map.advance(by: 1)
    let middle = Mercator.worldPoint(marker.position)
    let a = Mercator.worldPoint(Places.sydney), b = Mercator.worldPoint(Places.melbourne)
    expectClose(middle.x, (a.x + b.x) / 2, tolerance: 1e-12)
    try map.settle()
    #expect(marker.position == Places.melbourne)
    #expect(finished == [true])
    #expect(map.topmostMarker(at: map.iconCenter(of: marker)!) === marker, "the index follows the animation")
  }
}

extension MapView {
  /// Where a default pin at `coordinate` has its icon centre.
  func iconCenterForTest(_ coordinate: Coordinate) -> Point {
    let point = projection.point(for: coordinate)!
    return Point(x: point.x, y: point.y - MarkerOptions.defaultPinSize.height / 2)
  }
}
