import Foundation
import Testing
import WaymarkCore
import WaymarkScenarios
import WaymarkTesting

@testable import WaymarkScripting

/// A marker property is declared once, in `MarkerProperties` (R1); these tests walk those
/// declarations, so a property added there without its Lua field, its LuaLS type or its row
/// in docs/plugins.md fails here (docs/architecture.md, "Where to change things").
@Suite struct MarkerDeclarationTests {
  /// The names of the stored properties of `MarkerProperties`, the boxed rare ones included,
  /// as reflection finds them (never a list written by hand).
  static var declaredProperties: [String] {
    var properties = MarkerProperties()
    properties.icon = .defaultPin  // gives the rare properties their box, to walk it too
    var names: [String] = []
    for child in Mirror(reflecting: properties).children {
      guard let label = child.label else { continue }
      guard label == "rare" else {
        names.append(label)
        continue
      }
      // rare → box (an Optional) → the box's values → the values' own properties.
      let box = Mirror(reflecting: child.value).children.first { $0.label == "box" }?.value
      let unwrapped = box.flatMap { Mirror(reflecting: $0).children.first?.value }
      let values = unwrapped.flatMap { Mirror(reflecting: $0).children.first { $0.label == "values" }?.value }
      names += values.map { Mirror(reflecting: $0).children.compactMap(\.label) } ?? []
    }
    return names
  }

  /// `groundAnchor` → `ground_anchor`, as the Lua API names fields (`LuaNames`).
  static func luaName(_ swiftName: String) -> String {
    swiftName.reduce(into: "") { name, character in
      if character.isUppercase { name += "_" + character.lowercased() } else { name.append(character) }
    }
  }

  /// Declared properties the Lua API shows inside another field: the icon's insets are
  /// `icon.insets` (R37).
  static let shownInside = ["iconInsets": "icon"]

  /// The marker's own properties beside the declared ones.
  static let markerOwn = ["position", "title"]

  @Test("Every declared marker property has its Lua field, and every Lua field a declaration")
  func everyDeclarationHasItsLuaField() {
    let declared = Self.declaredProperties
    #expect(declared.contains("zIndex") && declared.contains("userData"), "the walk found \(declared)")
    let expected = Set(declared.map { Self.shownInside[$0] ?? Self.luaName($0) } + Self.markerOwn)
    // user_data is the bridge's own field (a Lua value, not a Swift object).
    let lua = Set(MarkerField.all.map(\.name) + ["user_data"])
    #expect(
      lua == expected,
      "declared but not in Lua: \(expected.subtracting(lua)); in Lua only: \(lua.subtracting(expected))")
  }

  @Test("Every marker field is in the LuaLS types and in docs/plugins.md")
  func everyFieldIsTypedAndDocumented() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let plugins = try String(contentsOf: root.appendingPathComponent("docs/plugins.md"), encoding: .utf8)
    let start = try #require(plugins.range(of: "- Markers: the R1 names"))
    let end = plugins[start.upperBound...].range(of: "\n- ")?.lowerBound ?? plugins.endIndex
    let paragraph = plugins[start.lowerBound..<end]
    let types = LuaLSDefinitions.generate()
    for name in Set(MarkerField.all.map(\.name) + ["user_data"]) {
      #expect(paragraph.contains("`\(name)`"), "docs/plugins.md's marker paragraph lacks `\(name)`")
      #expect(types.contains("---@field \(name) "), "the LuaLS types lack \(name)")
    }
  }

  @Test("R1: a new marker has every declared property at its default, and shares them")
  func newMarkersHaveTheDefaults() throws {
    let map = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 10))
    let marker = try map.addMarker(MarkerOptions(position: Places.sydney, title: "Sydney"))
    #expect(marker.options.properties == MarkerProperties())
    #expect(marker.options.properties.isDefault)
  }

  final class Tag {}

  @Test("A change of any declared property reaches the marker whole, and its equality sees it")
  func everyPropertyIsCopiedAndCompared() throws {
    // One change per declared property: a property missing here fails the count below.
    let changes: [String: (inout MarkerProperties) -> Void] = [
      "id": { $0.id = "named" },
      "snippet": { $0.snippet = "second line" },
      "groundAnchor": { $0.groundAnchor = Point(x: 0.25, y: 0.5) },
      "infoWindowAnchor": { $0.infoWindowAnchor = Point(x: 0.75, y: 0.25) },
      "appearAnimation": { $0.appearAnimation = .pop },
      "draggable": { $0.draggable = true },
      "flat": { $0.flat = true },
      "rotation": { $0.rotation = 30 },
      "opacity": { $0.opacity = 0.5 },
      "zIndex": { $0.zIndex = 4 },
      "tappable": { $0.tappable = false },
      "tracksViewChanges": { $0.tracksViewChanges = false },
      "tracksInfoWindowChanges": { $0.tracksInfoWindowChanges = true },
      "icon": { $0.icon = .tintedPin(color: "#00ff00") },
      "iconView": { $0.iconView = MarkerIconView(name: "badge", size: Size(width: 20, height: 20)) },
      "iconInsets": { $0.iconInsets = EdgeInsets(top: 1, left: 2, bottom: 3, right: 4) },
      "userData": { $0.userData = Tag() },
    ]
    #expect(Set(changes.keys) == Set(Self.declaredProperties), "every declared property has a change here")
    let map = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 10))
    for (name, change) in changes.sorted(by: { $0.key < $1.key }) {
      var options = MarkerOptions(position: Places.sydney)
      change(&options.properties)
      #expect(options.properties != MarkerProperties(), "\(name): equality sees the change")
      let marker = try map.addMarker(options)
      #expect(marker.options.properties == options.properties, "\(name): the marker keeps it")
      let neighbour = try map.addMarker(MarkerOptions(position: Places.sydney))
      #expect(neighbour.options.properties == MarkerProperties(), "\(name): the defaults stay shared")
    }
  }
}
