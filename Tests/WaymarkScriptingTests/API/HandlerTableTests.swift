import Foundation
import Testing
import WaymarkCore
import WaymarkTesting

@testable import WaymarkScripting

/// What plugin authors read about the handlers comes from the callback table.
@Suite struct HandlerTableTests {
  static let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs/plugins.md")

  @Test("docs/plugins.md has the handler table the callback table generates")
  func theDocumentedTableIsTheGeneratedOne() throws {
    let page = try String(contentsOf: Self.docs, encoding: .utf8)
    let begin = try #require(
      page.range(of: "generated from the callback table (LuaAPI.handlerTableMarkdown); a test keeps it equal -->\n"))
    let end = try #require(page.range(of: "\n<!-- end of handler table -->"))
    let documented = String(page[begin.upperBound..<end.lowerBound])
    #expect(
      documented == LuaAPI.handlerTableMarkdown,
      "replace the table in docs/plugins.md with:\n\(LuaAPI.handlerTableMarkdown)")
  }

  @Test("A plugin's handler receives the arguments its row declares, with their Lua types")
  func handlersReceiveTheDeclaredArguments() throws {
    var handlers: [String] = []
    for callback in DelegateCallback.allCases {
      handlers.append(
        """
        function p.\(callback.name)(map, ...)
          local types = { getmetatable(map) == false and "Map" or type(map) }
          for i = 1, select("#", ...) do
            local v = select(i, ...)
            types[#types + 1] = (v == map:marker("sydney") and "Marker") or (type(v) == "userdata" and "Overlay") or type(v)
          end
          print("\(callback.name)", table.concat(types, " "))
        end
        """)
    }
    let f = try PluginFixture(["all.lua": "local p = {}\n" + handlers.joined(separator: "\n") + "\nreturn p"])
    let overlay = try f.map.addOverlay(OverlayOptions(shape: .circle(center: Place.sydney, radius: 10)))
    for callback in DelegateCallback.allCases {
      _ = f.host.mapView(f.map, receive: SampleEvents.event(of: callback, marker: f.sydney, overlay: overlay))
      let expected = ["Map"] + callback.signature.arguments.map { luaType($0.type) }
      #expect(f.logs.last == "\(callback.name)\t\(expected.joined(separator: " "))")
    }
    #expect(f.errors.isEmpty)
    #expect(f.host.plugins.first?.handlers == DelegateCallback.allCases.map(\.name))
  }

  private func luaType(_ kind: CallbackSignature.Argument.Kind) -> String {
    switch kind {
    case .boolean: "boolean"
    case .camera, .coordinate, .capabilities, .features, .cluster, .clusterItem: "table"
    case .marker: "Marker"
    case .overlay: "Overlay"
    case .string: "string"
    }
  }
}
