import Foundation
import Testing
import WaymarkCore

@testable import WaymarkRender

/// The SVG snapshot and the HTML replay draw a map's scene the same way: the page's drawing
/// module (`MapDrawingScript`, run by Node.js, no browser) renders the replay at the moment
/// of each picture, and its markup is the SVG's, byte for byte, but the ripples of recent
/// touches (the replay's own). Markers of every look, placement and animation are in the
/// pictures, with a window, overlays, places and a turned, tilted camera.
@Suite struct SceneDrawingTests {
  @Test("R4, R7, R15, R37, R44, R45, R48, R69: the replay draws each picture's scene as the SVG does")
  func theReplayDrawsWhatTheSVGDraws() throws {
    let map = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 12))
    let recorder = ReplayRecorder()
    recorder.begin(map, traceStart: 0)
    var pictures: [(t: Double, svg: String, window: Bool)] = []
    func takePicture(window: Bool = false) {
      pictures.append((map.clock.now, SVGRenderer().svg(of: map), window))
      recorder.markPicture(of: map)
    }
    try addMarkersOfEveryKind(to: map)
    try addOverlaysAndPlaces(to: map)
    try map.advance(by: 0.1)
    takePicture()  // popping and fading in, a multi-frame icon on its first frame
    try map.advance(by: 0.3)
    takePicture()  // still appearing, the second frame
    try map.settle()
    try map.moveCamera(.setCamera(CameraPosition(target: Places.sydney, zoom: 12.5, bearing: 35, tilt: 40)))
    let turned = try #require(map.marker(id: "turned"))
    map.selectedMarker = turned
    takePicture(window: true)  // flat markers turned and foreshortened; the selection and its window
    try #require(map.marker(id: "pin")).update { $0.rotation = 200 }
    try map.drag(try #require(map.marker(id: "view")), to: Places.melbourne, duration: 0.5)
    try map.advance(by: 0.2)
    takePicture(window: true)  // mid drag, after a change
    try map.advance(by: 1)
    recorder.end(traceEnd: map.trace.records.count)

    let drawn = try ReplayDrawing.render(recorder.recording, at: pictures.map(\.t))
    #expect(drawn.count == pictures.count)
    for ((t, svg, window), replay) in zip(pictures, drawn) {
      #expect(replay.opening == ReplayDrawing.opening(of: svg), "the root at \(t)")
      let inner = ReplayDrawing.inner(of: svg)
      #expect(inner.components(separatedBy: "<g class=\"marker\"").count > 8, "at \(t)")
      #expect(inner.contains("<g class=\"info-window\"") == window, "at \(t)")
      // R69: the compass shows while the bearing is not 0 (the pictures with a window).
      #expect(inner.contains("<g class=\"compass\"") == window, "at \(t)")
      if let difference = ReplayDrawing.firstDifference(inner, replay.inner) {
        Issue.record("at \(t) the replay draws otherwise: \(difference)")
      }
    }
  }

  /// Pins plain and tinted, an image with insets and anchors, a tinted icon view, a turned
  /// marker, flat ones, a faded one above the others, appear animations and a multi-frame icon.
  func addMarkersOfEveryKind(to map: MapView) throws {
    func add(_ id: String, dx: Double, dy: Double, _ configure: (inout MarkerOptions) -> Void = { _ in }) throws {
      var options = MarkerOptions(
        position: Coordinate(latitude: Places.sydney.latitude + dy, longitude: Places.sydney.longitude + dx), id: id,
        title: id)
      configure(&options)
      try map.addMarker(options)
    }
    try add("pin", dx: 0, dy: 0)
    try add("tinted", dx: 0.02, dy: 0.01) { $0.icon = .tintedPin(color: "#34a853") }
    try add("image", dx: -0.03, dy: 0.02) {
      $0.icon = .image(name: "harbour bridge", size: Size(width: 64, height: 40))
      $0.iconInsets = EdgeInsets(top: 4, left: 6, bottom: 2, right: 8)
      $0.groundAnchor = Point(x: 0.25, y: 0.75)
      $0.infoWindowAnchor = Point(x: 1, y: 0)
    }
    try add("view", dx: 0.03, dy: -0.02) {
      $0.iconView = MarkerIconView(name: "badge", size: Size(width: 50, height: 20), color: "#fbbc04")
      $0.draggable = true
    }
    try add("turned", dx: -0.01, dy: -0.03) {
      $0.rotation = 30
      $0.flat = true
      $0.icon = .image(name: "arrow", size: Size(width: 30, height: 30))
      $0.groundAnchor = Point(x: 0.5, y: 0.5)
    }
    try add("lying", dx: 0.01, dy: -0.01) { $0.flat = true }
    try add("faded", dx: 0.005, dy: 0.004) {
      $0.opacity = 0.4
      $0.zIndex = 2
    }
    try add("popping", dx: -0.02, dy: -0.01) { $0.appearAnimation = .pop }
    try add("fading", dx: 0.025, dy: 0.03) { $0.appearAnimation = .fadeIn }
    try add("beacon", dx: -0.015, dy: 0.035) {
      $0.icon = .frames(
        [
          MarkerIconFrame(name: "dim", size: Size(width: 24, height: 24)),
          MarkerIconFrame(name: "lit", size: Size(width: 36, height: 30)),
        ], duration: 0.6)
    }
  }

  /// A polygon with a hole, a circle, a polyline, a ground overlay, a point of interest and
  /// the my-location dot.
  func addOverlaysAndPlaces(to map: MapView) throws {
    let sydney = Places.sydney
    func near(_ dx: Double, _ dy: Double) -> Coordinate {
      Coordinate(latitude: sydney.latitude + dy, longitude: sydney.longitude + dx)
    }
    try map.addOverlay(
      OverlayOptions(
        shape: .polygon(
          outer: [near(-0.05, 0.04), near(0.05, 0.04), near(0, -0.05)],
          holes: [[near(-0.01, 0.01), near(0.01, 0.01), near(0, -0.01)]]), id: "area", zIndex: 1))
    try map.addOverlay(OverlayOptions(shape: .circle(center: sydney, radius: 1500), id: "ring"))
    try map.addOverlay(
      OverlayOptions(shape: .polyline(path: [near(-0.06, -0.02), near(0.06, 0.03)], width: 3), id: "line"))
    try map.addOverlay(
      OverlayOptions(
        shape: .groundOverlay(bounds: try CoordinateBounds(near(-0.04, -0.04), near(-0.02, -0.03)), image: "plan"),
        id: "plan"))
    try map.addPointOfInterest(PointOfInterest(placeID: "opera", name: "Opera House", location: near(0.01, 0.015)))
    map.isMyLocationEnabled = true
    map.deviceLocation = near(-0.005, -0.02)
    map.settings.compassButton = true
    try #require(map.overlays.first).update { $0.strokeWidth = 3 }
  }
}

/// The replay page's drawing module run by Node.js (Debian's `nodejs`, which
/// scripts/test.sh installs): `render` into a stand-in for the page's SVG element.
enum ReplayDrawing {
  /// What `render` left in the stand-in: the root's opening tag as the SVG writes it, and
  /// its markup without the ripples of touches.
  struct Drawn: Decodable {
    var opening: String
    var inner: String
  }

  static let node = "/usr/bin/node"

  /// Draws the first scene of `recording` at each of `times`.
  static func render(_ recording: ReplayRecording, at times: [Double]) throws -> [Drawn] {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("waymark-drawing-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let data = folder.appendingPathComponent("data.json"), script = folder.appendingPathComponent("draw.js")
    try ReplayPage.data(recording, records: [], title: "drawing").write(to: data, atomically: true, encoding: .utf8)
    try (MapDrawingScript.source + harness).write(to: script, atomically: true, encoding: .utf8)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: node)
    // The times as the timeline holds them: whole microseconds.
    let seconds = times.map { String(($0 * 1e6).rounded() / 1e6) }
    process.arguments = [script.path, data.path] + seconds
    let output = Pipe(), errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let printed = output.fileHandleForReading.readDataToEndOfFile()
    let complaints = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    try #require(process.terminationStatus == 0, "node failed: \(complaints)")
    return try JSONDecoder().decode([Drawn].self, from: printed)
  }

  /// Loads the page's data as the player does, renders each time given, and prints what
  /// was drawn.
  static let harness = #"""

    const fs = require("fs");
    const [file, ...times] = process.argv.slice(2);
    const data = JSON.parse(fs.readFileSync(file, "utf8"));
    data.land = WaymarkDraw.decodeLand(data.land);
    data.cities = WaymarkDraw.decodeCities(data.cities);
    const scene = data.scenes[0], timeline = new WaymarkDraw.Timeline(scene);
    const drawn = times.map(Number).map((t) => {
      const attributes = [];
      const svg = { setAttribute(name, value) { attributes.push(` ${name}="${value}"`); }, innerHTML: "" };
      WaymarkDraw.render(svg, data, scene, timeline.stateAt(t));
      const inner = svg.innerHTML.replace(/<g class="touches">.*<\/g>$/, "");
      return { opening: attributes.join(""), inner };
    });
    process.stdout.write(JSON.stringify(drawn));
    """#

  /// The attributes of the SVG's root that the page sets (size, font and camera), their
  /// values as the DOM holds them.
  static func opening(of svg: String) -> String {
    let root = svg[svg.range(of: "<svg")!.upperBound..<svg.range(of: ">")!.lowerBound]
    let attributes = [
      "viewBox", "width", "height", "font-family", "data-t", "data-lat", "data-lng", "data-zoom",
      "data-bearing", "data-tilt",
    ]
    return attributes.map { name in
      let value =
        root.range(of: " \(name)=\"").map { start in
          root[start.upperBound...].prefix { $0 != "\"" }
        } ?? ""
      let text = value.replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&quot;", with: "\"")
      return " \(name)=\"\(text)\""
    }.joined()
  }

  /// What the root holds.
  static func inner(of svg: String) -> String {
    let start = svg.range(of: ">", range: svg.range(of: "<svg")!.upperBound..<svg.endIndex)!.upperBound
    return String(svg[start..<svg.range(of: "</svg>", options: .backwards)!.lowerBound])
  }

  /// Where two drawings first differ, with some markup around it; nil when they are the same.
  static func firstDifference(_ a: String, _ b: String) -> String? {
    let a = Array(a.utf8), b = Array(b.utf8)
    guard a != b else { return nil }
    let at = zip(a, b).prefix { $0 == $1 }.count
    func around(_ bytes: [UInt8]) -> String {
      String(decoding: bytes[max(0, at - 120)..<min(bytes.count, at + 120)], as: UTF8.self)
    }
    return "byte \(at):\n  SVG:    \(around(a))\n  replay: \(around(b))"
  }
}
