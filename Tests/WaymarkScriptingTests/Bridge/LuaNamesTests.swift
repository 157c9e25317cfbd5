import Testing
import WaymarkCore

@testable import WaymarkScripting

/// The core's errors speak Swift; Lua users read the Lua API's names.
@Suite struct LuaNamesTests {
  @Test(arguments: [
    ("marker.groundAnchor.x", "marker.ground_anchor.x"),
    ("featureLayer.features[2].placeID", "feature_layer.features[2].place_id"),
    ("camera.target.latitude", "camera.target.lat"), ("cameraUpdate.zoomBy", "camera_update.zoom_by"),
    ("longPressInfoWindow", "long_press_info_window"), ("map.my_location.longitude", "map.my_location.lng"),
    ("pinch.zoom_by", "pinch.zoom_by"),
  ])
  func swiftPathsBecomeLuaPaths(swift: String, lua: String) {
    #expect(LuaNames.path(swift) == lua)
  }

  @Test func errorsReadInLuaNamesAndKeepTheirValues() {
    let relation = MapError.invalidRelation(
      field: "minZoom", value: "12", relation: "is greater than", other: "maxZoom", otherValue: "3")
    #expect(relation.description == "minZoom: 12 is greater than maxZoom 3")
    #expect(relation.luaDescription == "min_zoom: 12 is greater than max_zoom 3")
    let value = MapError.invalidValue(field: "marker.id", value: "\"myMarker\"", reason: "is already used")
    #expect(value.luaDescription == "marker.id: \"myMarker\" is already used", "values are never renamed")
    let input = MapError.reentrantInput(action: "longPress", callback: "did_tap_marker")
    #expect(
      input.description == "longPress cannot be called from inside did_tap_marker; schedule it on the clock instead")
    #expect(input.luaDescription.hasPrefix("long_press cannot be called from inside did_tap_marker"))
    #expect(input.luaDescription.hasSuffix("(map:after(0, ...))"))
  }
}
