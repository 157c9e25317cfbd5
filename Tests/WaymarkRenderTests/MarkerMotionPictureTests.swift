import Foundation
import Testing
import WaymarkCore

@testable import WaymarkRender

/// The pictures of R44 (flat markers under tilt) and R45 (appear animations): the SVG draws
/// the box hit-testing uses, and the replay carries what it needs to draw the same.
@Suite struct MarkerMotionPictureTests {
  @Test("R44: at tilt 60 a flat marker's drawn box is foreshortened to the box taps hit")
  func aFlatMarkerIsDrawnForeshortened() throws {
    let map = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 17, tilt: 60))
    var options = MarkerOptions(position: Places.sydney, id: "flat")
    options.icon = .image(name: "arrow", size: Size(width: 40, height: 40))
    options.flat = true
    try map.addMarker(options)
    let group = try #require(try picture(of: map).all("g", class: "marker").first)
    #expect(group["transform"]?.contains("scale(1 0.5)") == true, "\(group["transform"] ?? "")")
    let place = group.transform
    let top = place(Point(x: 20, y: 0)), bottom = place(Point(x: 20, y: 40))
    #expect(abs((bottom.y - top.y) - 20) < 1e-6, "drawn 20 points high, as cos(60) x 40")
    #expect(map.topmostMarker(at: Point(x: top.x, y: top.y + 1))?.id == "flat")
    #expect(map.topmostMarker(at: Point(x: top.x, y: top.y - 1)) == nil)
  }

  @Test("R45: while a marker fades in its group has an opacity below 1; while it pops, a scale; then neither")
  func appearingMarkersAreDrawnAppearing() throws {
    let map = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 12))
    try map.settle()
    var fading = MarkerOptions(position: Places.sydney, id: "fading")
    fading.appearAnimation = .fadeIn
    var popping = MarkerOptions(position: Places.melbourne, id: "popping")
    popping.appearAnimation = .pop
    try map.addMarker(fading)
    try map.moveCamera(.setCamera(CameraPosition(target: Places.sydney, zoom: 4)))
    try map.addMarker(popping)
    try map.advance(by: 0.1)
    let playing = try picture(of: map).all("g", class: "marker")
    let fade = try #require(playing.first { $0["data-id"] == "fading" })
    let pop = try #require(playing.first { $0["data-id"] == "popping" })
    let opacity = try #require(fade.number("opacity"))
    #expect(opacity > 0 && opacity < 1)
    #expect(fade["transform"]?.contains("scale(") == false)
    #expect(pop["transform"]?.contains(" scale(") == true)
    #expect(pop["opacity"] == nil)
    // The scale acts about the ground anchor: the anchor stays where the marker stands.
    let popped = try #require(map.marker(id: "popping"))
    let anchor = try #require(map.screenPoint(of: popped))
    let ground = pop.transform(Point(x: 13.5, y: 43))
    #expect(abs(ground.x - anchor.x) < 0.01 && abs(ground.y - anchor.y) < 0.01)
    try map.settle()
    for group in try picture(of: map).all("g", class: "marker") {
      #expect(group["opacity"] == nil)
      #expect(group["transform"]?.contains("scale(") == false)
    }
  }

  @Test("R45: the replay records an appearing marker's animation, its start and the appear duration")
  func theReplayCarriesAppearAnimations() throws {
    let map = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 12))
    let recorder = ReplayRecorder()
    recorder.begin(map, traceStart: 0)
    try map.advance(by: 1)
    var options = MarkerOptions(position: Places.sydney, id: "popping")
    options.appearAnimation = .pop
    try map.addMarker(options)
    try map.settle()
    recorder.end(traceEnd: map.trace.records.count)
    let added = try #require(recorder.recording.scenes.first?.timeline.events.lazy.compactMap(\.marker).first)
    #expect(added.appear == SceneAppear(animation: .pop, start: 1, duration: 0.5), "a pop starting at 1 s, for 0.5 s")
  }
}

/// R48's pictures: the SVG at time t draws the frame of t, and the replay names every frame.
@Suite struct MultiFrameIconPictureTests {
  @Test("R48: the SVG at time t shows the frame of t; the replay records each frame and its period")
  func theFrameOfTheTimeIsDrawn() throws {
    let map = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 12))
    let recorder = ReplayRecorder()
    recorder.begin(map, traceStart: 0)
    var options = MarkerOptions(position: Places.sydney, id: "beacon")
    options.icon = .frames(
      [
        MarkerIconFrame(name: "dim", size: Size(width: 30, height: 30)),
        MarkerIconFrame(name: "lit", size: Size(width: 40, height: 40)),
      ], duration: 0.8)
    try map.addMarker(options)
    func shown() throws -> (String, Double?) {
      let group = try #require(try picture(of: map).all("g", class: "marker").first)
      return (group.texts.joined(), group.children.first?.number("width"))
    }
    #expect(try shown() == ("dim", 30))
    try map.advance(by: 0.4)
    #expect(try shown() == ("lit", 40))
    try map.advance(by: 0.4)
    #expect(try shown() == ("dim", 30))
    recorder.end(traceEnd: map.trace.records.count)
    let beacon = try #require(recorder.recording.scenes.first?.timeline.events.lazy.compactMap(\.marker).first)
    #expect(beacon.frames == SceneFrames(period: 0.4, sprites: [0, 1]), "period 0.4 s, drawings 0 and 1")
  }
}
