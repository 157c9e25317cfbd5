import Testing
import WaymarkCore

@testable import WaymarkRender

/// R35: a custom window keeps its content's own size up to 500 points on either side; the
/// 280-point width belongs to the default frame.
@Suite struct CustomWindowSizeTests {
  private func shown(window: InfoWindowContent? = nil, contents: InfoWindowContent? = nil) throws -> MapView {
    let map = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 10))
    let delegate = ContentDelegate()
    delegate.window = { _ in window }
    delegate.contents = { _ in contents }
    map.delegate = delegate
    map.selectedMarker = try map.addMarker(MarkerOptions(position: Places.sydney, id: "m"))
    return map
  }

  private static func image(_ width: Double, _ height: Double) -> InfoWindowContent {
    InfoWindowContent(.image(ImageNode(name: "banner", width: width, height: height)))
  }

  @Test("R35: a 400 x 120 custom window keeps its size, in the frame, the taps and the picture")
  func aCustomWindowKeepsItsOwnSize() throws {
    let map = try shown(window: Self.image(400, 120))
    let frame = try #require(map.infoWindowFrame)
    #expect(frame.width == 400 && frame.height == 120)
    let svg = try picture(of: map)
    let window = try #require(svg.all("g", class: "info-window").first)
    #expect(window.all("rect", class: "image").first?["width"] == "400")
    #expect(window.all("svg", class: "cut").isEmpty, "not cut")
    #expect(!map.trace.records.contains { $0.event == .warning })
  }

  @Test("R35: custom contents keep the default frame's 280 points")
  func customContentsKeepTheDefaultWidth() throws {
    let map = try shown(contents: Self.image(400, 120))
    #expect(map.infoWindowFrame?.width == 280)
  }

  @Test("R35: past 500 points a custom window is fitted into 500 wide and cut at 500 high, with a warning")
  func pastFiveHundredTheWindowIsClamped() throws {
    let wide = try shown(window: Self.image(1000, 200))
    #expect(wide.infoWindowFrame?.width == 500, "fitted: the image scales down to 500 x 100")
    #expect(wide.infoWindowFrame?.height == 100)
    let tall = try shown(window: Self.image(300, 640))
    let frame = try #require(tall.infoWindowFrame)
    #expect(frame.width == 300 && frame.height == 500)
    let warning = try #require(tall.trace.records.first { $0.event == .warning }?.message)
    #expect(warning.contains("640 points high") && warning.contains("500"), "\(warning)")
    let cut = try #require(picture(of: tall).all("svg", class: "cut").first, "drawn clipped")
    #expect(cut["height"] == "500")
    #expect(tall.infoWindow?.layout.contains(Point(x: 150, y: 560)) == false, "a tap below the cut misses it")
  }
}

/// R37: an icon with insets is drawn whole, placed by the rectangle inside its insets.
@Suite struct IconInsetsDrawingTests {
  @Test("R37: the picture places the whole image so that the inset rectangle's anchor is on the position")
  func theImageIsPlacedByItsInsetRectangle() throws {
    let map = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 10))
    var options = MarkerOptions(position: Places.sydney, id: "m")
    options.icon = .image(name: "shadowed", size: Size(width: 40, height: 40))
    options.iconInsets = EdgeInsets(top: 4, left: 6, bottom: 10, right: 2)
    try map.addMarker(options)
    let marker = try #require(picture(of: map).all("g", class: "marker").first)
    #expect(marker["transform"]?.hasSuffix("translate(-22 -30)") == true, "\(marker["transform"] ?? "")")
    #expect(marker.all("rect").first?["width"] == "40", "drawn whole")
  }
}
