import Foundation
import Testing
import WaymarkCore

@testable import WaymarkRender

@Suite struct SVGRendererTests {
  let view = Rect(x: 0, y: 0, width: 390, height: 844)

  @Test func theRootCarriesTheViewAndTheCamera() throws {
    let map = try MapView(
      camera: CameraPosition(target: Places.melbourne, zoom: 6.5, bearing: 20, tilt: 15),
      viewSize: Size(width: 320, height: 480))
    try map.advance(by: 1.25)
    let svg = try picture(of: map)
    #expect(svg.name == "svg" && svg["class"] == "waymark-map")
    #expect(svg["width"] == "320" && svg["height"] == "480" && svg["viewBox"] == "0 0 320 480")
    #expect(svg["data-t"] == "1.25" && svg["data-lat"] == "-37.81969" && svg["data-lng"] == "144.966085")
    #expect(svg["data-zoom"] == "6.5" && svg["data-bearing"] == "20" && svg["data-tilt"] == "15")
  }

  @Test("R4: Each marker stands where point for says in draw order") func eachMarkerStandsWherePointForSaysInDrawOrder()
    throws
  {
    // R4: the order drawn is the order a tap sees (z-index, then the most recently added on top).
    let map = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 9, bearing: 35, tilt: 40))
    var random = SeededRandom(state: 7)
    for index in 0..<60 {
      var options = MarkerOptions(
        position: Coordinate(
          latitude: Places.sydney.latitude + random.double(-0.4, 0.4),
          longitude: Places.sydney.longitude + random.double(-0.4, 0.4)), id: "m\(index)")
      options.zIndex = Int32(index % 3)
      try map.addMarker(options)
    }
    let groups = try picture(of: map).all("g", class: "marker")
    let drawn = map.markers(in: view)
    #expect(groups.count == drawn.count && drawn.count > 20)
    #expect(groups.map { $0["data-id"] ?? "" } == drawn.map(\.id))
    for (group, marker) in zip(groups, drawn) {
      let point = try #require(map.projection.point(for: marker.position))
      expectClose(try #require(group.number("data-x")), point.x, tolerance: 0.005)
      expectClose(try #require(group.number("data-y")), point.y, tolerance: 0.005)
    }
  }

  @Test func onlyMarkersThatReachIntoTheViewAreDrawn() throws {
    let map = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 12))
    let far = try map.addMarker(MarkerOptions(position: Places.melbourne, id: "far"))
    // Its anchor is 20 points below the view, but its 43-point pin reaches up into it.
    let edge = try #require(map.projection.coordinate(for: Point(x: 100, y: 864)))
    try map.addMarker(MarkerOptions(position: edge, id: "edge"))
    let below = try #require(map.projection.coordinate(for: Point(x: 100, y: 890)))
    try map.addMarker(MarkerOptions(position: below, id: "below"))
    let ids = try picture(of: map).all("g", class: "marker").map { $0["data-id"] }
    #expect(ids == ["edge"])
    #expect(far.map === map)
  }

  @Test(arguments: [(0.0, 0.0), (30.0, 40.0), (200.0, 65.0)])
  func aMarkersDrawnBoxIsItsHitBox(bearing: Double, tilt: Double) throws {
    // R4: tapping the centre of any drawn box gets the marker drawn on top there: drawing
    // and hit-testing place, turn and stack icons alike.
    let map = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 16, bearing: bearing, tilt: tilt))
    var random = SeededRandom(state: UInt64(bearing + tilt) + 1)
    for index in 0..<300 {
      var options = MarkerOptions(
        position: Coordinate(
          latitude: Places.sydney.latitude + random.double(-0.003, 0.003),
          longitude: Places.sydney.longitude + random.double(-0.003, 0.003)), id: "m\(index)")
      switch index % 3 {
      case 0: break
      case 1:
        options.icon = .image(
          name: "img\(index)", size: Size(width: random.double(8, 70), height: random.double(8, 50)))
      default: options.iconView = MarkerIconView(name: "view", size: Size(width: random.double(10, 60), height: 24))
      }
      options.rotation = index % 2 == 0 ? random.double(0, 360) : 0
      options.flat = index % 5 == 0
      options.groundAnchor = Point(x: random.unit(), y: random.unit())
      options.zIndex = Int32(index % 4 == 0 ? 1 : 0)
      try map.addMarker(options)
    }
    let groups = try picture(of: map).all("g", class: "marker")
    #expect(groups.count > 150)
    let boxes = try groups.map { group -> (id: String, corners: [Point]) in
      let shape = try #require(group.children.first { $0["class"] != "selection" })
      let width = try #require(shape.number("width")), height = try #require(shape.number("height"))
      let place = group.transform
      return (
        group["data-id"]!,
        [Point(x: 0, y: 0), Point(x: width, y: 0), Point(x: width, y: height), Point(x: 0, y: height)].map(place)
      )
    }
    var checked = 0
    for box in boxes {
      let centre = Point(
        x: box.corners.map(\.x).reduce(0, +) / 4, y: box.corners.map(\.y).reduce(0, +) / 4)
      guard view.contains(centre) else { continue }
      let depths = boxes.map { Self.insideDepth(centre, $0.corners) }
      // Leave out centres that lie within a hair of another box's edge: rounding decides.
      guard !depths.contains(where: { abs($0) < 0.05 }) else { continue }
      let onTop = depths.indices.last { depths[$0] > 0 }.map { boxes[$0].id }
      #expect(map.topmostMarker(at: centre)?.id == onTop, "the centre of \(box.id)'s box")
      checked += 1
    }
    #expect(checked > 100)
  }

  /// How far `point` is inside the convex quadrilateral (negative: outside), in points.
  static func insideDepth(_ point: Point, _ corners: [Point]) -> Double {
    var depth = Double.infinity
    let area = zip(corners, corners.dropFirst() + [corners[0]]).map { $0.x * $1.y - $1.x * $0.y }.reduce(0, +)
    for (a, b) in zip(corners, corners.dropFirst() + [corners[0]]) {
      let length = a.distance(to: b)
      guard length > 0 else { continue }
      let cross = ((b.x - a.x) * (point.y - a.y) - (b.y - a.y) * (point.x - a.x)) / length
      depth = min(depth, area > 0 ? cross : -cross)
    }
    return depth
  }

  @Test func iconsAreDrawnByKindWithTheirPlacement() throws {
    let map = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 12))
    var tinted = MarkerOptions(position: Places.sydney, id: "tinted")
    tinted.icon = .tintedPin(color: "#00ff00")
    tinted.opacity = 0.5
    try map.addMarker(tinted)
    var image = MarkerOptions(position: Places.sydney, id: "image")
    image.icon = .image(name: "harbour", size: Size(width: 64, height: 32))
    image.rotation = 30
    image.groundAnchor = Point(x: 0.25, y: 0.5)
    try map.addMarker(image)
    var view = MarkerOptions(position: Places.sydney, id: "view")
    view.iconView = MarkerIconView(name: "badge", size: Size(width: 50, height: 20))
    try map.addMarker(view)
    let plain = try map.addMarker(MarkerOptions(position: Places.sydney, id: "plain"))
    map.selectedMarker = plain
    let groups = try picture(of: map).all("g", class: "marker")
    #expect(groups.map { $0["data-id"] } == ["tinted", "image", "view", "plain"])
    let pin = try #require(groups[0].all("use").first)
    #expect(pin["href"] == "#wm-pin" && pin["fill"] == "#00FF00" && pin["width"] == "27" && pin["height"] == "43")
    #expect(groups[0]["opacity"] == "0.5")
    #expect(groups[1]["transform"] == "translate(195 422) rotate(30) translate(-16 -16)")
    #expect(groups[1].all("rect").first?["width"] == "64" && groups[1].texts == ["harbour"])
    #expect(groups[2].texts == ["badge"])
    #expect(groups[3].all("use").first?["fill"] == "#EA4335")
    #expect(groups[3]["data-selected"] == "true" && groups[3].all("rect", class: "selection").count == 1)
    #expect(groups[0]["data-selected"] == nil)
  }

  @Test("R7: The default window holds title and snippet as text") func theDefaultWindowHoldsTitleAndSnippetAsText()
    throws
  {
    // R7: the default window, title bold and snippet, in the default frame with its tail.
    let map = try MapView(camera: CameraPosition(target: Places.melbourne, zoom: 10))
    let marker = try map.addMarker(
      MarkerOptions(position: Places.melbourne, id: "melbourne", title: "Melbourne", snippet: "Population: 4,169,103"))
    try map.tap(marker)
    let svg = try picture(of: map)
    let window = try #require(svg.all("g", class: "info-window").first)
    #expect(window["data-marker"] == "melbourne" && window["data-kind"] == "default")
    #expect(window.texts == ["Melbourne", "Population: 4,169,103"])
    #expect(window.all("text").first?["font-weight"] == "600")
    #expect(window.all("path", class: "frame").count == 1)
  }

  @Test("R7: Custom windows are drawn as the layout engine laid them out")
  func customWindowsAreDrawnAsTheLayoutEngineLaidThemOut() throws {
    // R7: a custom window as given; custom contents in the default frame.
    let map = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 10))
    let delegate = ContentDelegate()
    map.delegate = delegate
    // Long enough to wrap within a custom window's 500 points (R35).
    let long =
      "A harbour city with a famous opera house, a bridge people climb, beaches along the coast and ferries"
      + " that cross the harbour all day"
    delegate.window = { marker in
      marker.id == "sydney"
        ? InfoWindowContent(
          .box(
            BoxNode(
              .stack(
                StackNode(
                  .vertical,
                  [
                    .text(TextNode("Sydney", style: .title)), .text(TextNode(long, style: .caption)),
                    .image(ImageNode(name: "opera_house", width: 120, height: 40)),
                  ])),
              padding: EdgeInsets(top: 8, left: 8, bottom: 8, right: 8), background: ContentColor(parsing: "#1a73e8"))))
        : nil
    }
    let sydney = try map.addMarker(MarkerOptions(position: Places.sydney, id: "sydney"))
    try map.tap(sydney)
    let svg = try picture(of: map)
    let window = try #require(svg.all("g", class: "info-window").first)
    #expect(window["data-kind"] == "window")
    let layout = try #require(map.infoWindow?.layout)
    #expect(window.texts == InfoWindowText.lines(of: layout))
    #expect(window.texts.count > 2, "the caption wraps")
    #expect(window.texts.dropFirst().joined(separator: " ") == long)
    #expect(window.all("rect").first?["fill"] == "#1A73E8", "the box's background")
    #expect(window.all("rect", class: "image").first?["width"] == "120")
    #expect(window.all("path", class: "frame").isEmpty, "a whole custom window has no frame")
    let labels = try #require(svg.all("g", class: "info-window-labels").first)
    #expect(labels.texts == ["opera_house"] && labels["transform"] == window["transform"])
  }

  @Test func theWindowsTailSitsOnTheInfoWindowAnchor() throws {
    let map = try MapView(camera: CameraPosition(target: Places.brisbane, zoom: 10, bearing: 40))
    var options = MarkerOptions(position: Places.brisbane, id: "b", title: "Brisbane")
    options.infoWindowAnchor = Point(x: 1, y: 0.25)
    options.rotation = 90
    let marker = try map.addMarker(options)
    try map.tap(at: try #require(map.iconCenter(of: marker)))
    let svg = try picture(of: map)
    let window = try #require(svg.all("g", class: "info-window").first)
    let layout = try #require(map.infoWindow?.layout)
    let tip = window.transform(layout.anchor)
    let anchorOnScreen = MarkerGeometry.point(
      marker.infoWindowAnchor, of: marker, at: try #require(map.screenPoint(of: marker)), bearing: map.flatMarkerBearing
    )
    expectClose(tip.x, anchorOnScreen.x, tolerance: 0.01)
    expectClose(tip.y, anchorOnScreen.y, tolerance: 0.01)
  }

  @Test("R15: Overlays are drawn by z index and places on top") func overlaysAreDrawnByZIndexAndPlacesOnTop() throws {
    // R15: lowest z-index first, then in order of addition.
    let map = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 11))
    var polygon = OverlayOptions(
      shape: .polygon(
        outer: [
          Coordinate(latitude: -33.80, longitude: 151.15), Coordinate(latitude: -33.80, longitude: 151.27),
          Coordinate(latitude: -33.93, longitude: 151.21),
        ],
        holes: [
          [
            Coordinate(latitude: -33.84, longitude: 151.20), Coordinate(latitude: -33.84, longitude: 151.22),
            Coordinate(latitude: -33.87, longitude: 151.21),
          ]
        ]), id: "area", zIndex: 2)
    polygon.fillColor = "#ff000080"
    try map.addOverlay(polygon)
    try map.addOverlay(OverlayOptions(shape: .circle(center: Places.sydney, radius: 2000), id: "ring"))
    try map.addOverlay(
      OverlayOptions(
        shape: .polyline(path: [Places.sydney, Coordinate(latitude: -33.9, longitude: 151.3)], width: 4), id: "line"))
    try map.addPointOfInterest(PointOfInterest(placeID: "opera", name: "Opera House", location: Places.sydney))
    map.isMyLocationEnabled = true
    map.deviceLocation = Coordinate(latitude: -33.87, longitude: 151.19)
    let svg = try picture(of: map)
    let overlays = svg.all("g", class: "overlay")
    #expect(overlays.map { $0["data-id"] } == ["ring", "line", "area"])
    let area = try #require(overlays.last?.all("path").first)
    #expect(area["fill"] == "#FF0000" && area["fill-opacity"] == "0.502" && area["fill-rule"] == "evenodd")
    #expect((area["d"] ?? "").filter { $0 == "M" }.count == 2, "the outer ring and its hole")
    #expect(overlays[1].all("path").first?["stroke-width"] == "4")
    #expect(svg.all("g", class: "poi").first?.texts == ["Opera House"])
    #expect(svg.all("g", class: "my-location").count == 1)
  }

  @Test("GMSPolygon.strokeWidth: a polygon's and a circle's outline is drawn at its width")
  func areaOutlinesAreDrawnAtTheirWidth() throws {
    let map = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 11))
    var wide = OverlayOptions(
      shape: .polygon(
        outer: [
          Coordinate(latitude: -33.80, longitude: 151.15), Coordinate(latitude: -33.80, longitude: 151.27),
          Coordinate(latitude: -33.93, longitude: 151.21),
        ], holes: []), id: "wide")
    wide.strokeWidth = 5
    var bare = OverlayOptions(shape: .circle(center: Places.sydney, radius: 2000), id: "bare", zIndex: 1)
    bare.strokeWidth = 0
    try map.addOverlay(wide)
    try map.addOverlay(bare)
    try map.addOverlay(OverlayOptions(shape: .circle(center: Places.sydney, radius: 900), id: "plain", zIndex: 2))
    let paths = try picture(of: map).all("g", class: "overlay").map { $0.all("path").first }
    #expect(paths.map { $0?["stroke-width"] } == ["5", "0", "1.5"])
    #expect(paths[1]?["stroke"] == "none", "a width of 0 draws no outline")
  }

  @Test func aCircleIsDrawnThroughThePointsHitTestingCallItsEdge() throws {
    for point in OverlayArt.ring(around: Places.melbourne, radius: 25_000) {
      expectClose(Places.melbourne.distance(to: point), 25_000, tolerance: 0.01)
    }
  }

  @Test func theSameStateGivesTheSameBytes() throws {
    func draw() throws -> String {
      let map = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 7, bearing: 12.5, tilt: 25))
      for index in 0..<20 {
        try map.addMarker(
          MarkerOptions(
            position: Coordinate(latitude: -33.8 + Double(index) * 0.05, longitude: 151 + Double(index) * 0.03),
            title: "m\(index)"))
      }
      try map.tap(try #require(map.markers.last))
      try map.settle()
      return SVGRenderer().svg(of: map)
    }
    let first = try draw()
    #expect(first == (try draw()))
    #expect(first.hasSuffix("</svg>\n"))
  }
}
