import Foundation
import Testing
import WaymarkCore

@testable import WaymarkScripting

/// Bad values are refused with a message that names the right thing: the field as the Lua
/// API spells it, the argument as the user counts it, and what is wrong with the value.
@Suite struct RefusedValuesTests {
  static let prelude = """
    local map = waymark.map{ camera = { target = { lat = -37.81969, lng = 144.966085 }, zoom = 4 } }

    """

  /// The error a script stops with when its second line is `line`.
  func error(_ line: String) throws -> String {
    let outcome = try ScriptRunnerTests().run(Self.prelude + line + "\n").0
    return try #require(outcome.error, "\(line) was accepted")
  }

  @Test("R1: Anchors outside 0...1 are refused, naming the field")
  func anchorsOutsideTheUnitSquareAreRefused() throws {
    let window = try error(
      #"map:add_marker{ position = { lat = 1, lng = 2 }, info_window_anchor = { x = 1.5, y = -0.5 } }"#)
    #expect(window.contains("demo.lua:2:") && window.contains("marker.info_window_anchor.x: 1.5 is outside 0...1"))
    let ground = try error(
      #"local m = map:add_marker{ position = { lat = 1, lng = 2 } }; m.ground_anchor = { x = 0.5, y = 1.01 }"#)
    #expect(ground.contains("marker.ground_anchor.y: 1.01 is outside 0...1"))
  }

  @Test("R3: A tint that is not a colour is refused, with the closest name")
  func aTintThatIsNotAColourIsRefused() throws {
    let reddish = try error(#"map:add_marker{ position = { lat = 1, lng = 2 }, icon = { color = "reddish" } }"#)
    #expect(
      reddish.contains(##"marker.icon.color: "reddish" is not a colour: write "#RRGGBB", "#RRGGBBAA" or one of"##))
    #expect(reddish.hasSuffix("did you mean red?"))
    let hex = try error(##"map:add_marker{ position = { lat = 1, lng = 2 }, icon = { color = "#GGHHII" } }"##)
    #expect(hex.contains(##"marker.icon.color: "#GGHHII" is not a colour"##))
    let stroke = try error(#"map:add_polyline{ path = { { 0, 0 }, { 1, 1 } }, stroke_color = "blu" }"#)
    #expect(stroke.contains(#"overlay.stroke_color: "blu" is not a colour"#) && stroke.hasSuffix("did you mean blue?"))
    let fine = try ScriptRunnerTests().run(
      Self.prelude + ##"map:add_marker{ position = { lat = 1, lng = 2 }, icon = { color = "#FFaa00" } }"##
    ).0
    #expect(fine.error == nil)
  }

  @Test("Unknown keys inside nested tables are refused like unknown top-level keys")
  func unknownNestedKeysAreRefused() throws {
    let alt = try error(#"map:add_marker{ position = { lat = 1, lng = 2, alt = 3 } }"#)
    #expect(alt.contains("marker.position: unknown field 'alt'"))
    let third = try error(#"map:add_marker{ position = { 1, 2, 3 } }"#)
    #expect(third.contains("marker.position: unknown field [3]; expected one of lat, lng"))
    let target = try error(#"map:move_camera{ target = { lat = 1, lon = 2 } }"#)
    #expect(target.contains("move_camera.target: unknown field 'lon'; expected one of lat, lng"))
    let camera = try error(#"map:move_camera{ camera = { target = { lat = 1, lng = 2 }, zoom = 3, bearin = 4 } }"#)
    #expect(camera.contains("move_camera.camera: unknown field 'bearin'; did you mean bearing?"))
    let padding = try error(#"map:move_camera{ fit = { { lat = 1, lng = 2 } }, padding = { top = 1, botom = 2 } }"#)
    #expect(padding.contains("move_camera.padding: unknown field 'botom'; did you mean bottom?"))
    let point = try error(#"map:pinch(1, { point = { x = 1, y = 2, z = 3 } })"#)
    #expect(point.contains("pinch.point: unknown field 'z'"))
    let scroll = try error(#"map:animate{ scroll_by = { x = 1, yy = 2 } }"#)
    #expect(scroll.contains("animate.scroll_by: unknown field 'yy'; did you mean y?"))
    let feature = try error(#"map:add_feature_layer{ name = "l", features = { { place_id = "p", boundry = {} } } }"#)
    #expect(feature.contains("add_feature_layer.features[1]: unknown field 'boundry'; did you mean boundary?"))
    let size = try ScriptRunnerTests().run("waymark.map{ size = { width = 300, heigth = 400 } }\n").0
    #expect(size.error?.contains("waymark.map size: unknown field 'heigth'; did you mean height?") == true)
  }

  @Test("R11: Selecting a value that is not a marker names selected_marker")
  func selectingANonMarkerNamesSelectedMarker() throws {
    let message = try error(#"map.selected_marker = "m""#)
    #expect(message.contains("map.selected_marker: expected a marker, got string"))
  }

  @Test("Argument errors count the arguments as the user does after a colon")
  func argumentErrorsCountAsTheUserDoes() throws {
    let tap = try error(#"map:tap("here")"#)
    #expect(tap.contains("bad argument #1 to 'tap' (a marker, { lat =, lng = } or { x =, y = } expected, got string)"))
    let rotate = try error(#"map:rotate("left")"#)
    #expect(rotate.contains("bad argument #1 to 'rotate' (number expected, got string)"))
    let drag = try error(#"map:drag("m", { lat = 1, lng = 2 })"#)
    #expect(drag.contains("bad argument #1 to 'drag' (marker expected, got string)"))
    let dot = try error(#"map.tap(map, "here")"#)
    #expect(dot.contains("bad argument #2 to 'tap'"), "without the colon the map is the first argument")
  }

  @Test("R28: An empty fit says the list is empty")
  func anEmptyFitSaysTheListIsEmpty() throws {
    let message = try error(#"map:move_camera{ fit = {} }"#)
    #expect(message.contains("move_camera.fit: the list of coordinates is empty"))
  }
}
