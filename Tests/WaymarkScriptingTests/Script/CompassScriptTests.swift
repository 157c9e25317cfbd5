import Foundation
import Testing
import WaymarkCore

@testable import WaymarkScenarios
@testable import WaymarkScripting

/// R69: the compass button as scripts use it, and as the SVG snapshot draws it.
@Suite struct CompassScriptTests {
  @Test("R69: map.compass_button, map.compass_shown, map:tap_compass() and the compass in a snapshot")
  func theCompassFromAScript() throws {
    let folder = try PluginFolder()
    let turnedPath = folder.file("turned.svg"), northPath = folder.file("north.svg")
    try folder.write(
      "demo.lua",
      """
      local map = waymark.map{ camera = { target = { lat = -33.8683, lng = 151.2086 }, zoom = 10 } }
      expect(map.compass_button == false, "R69: off by default")
      map.compass_button = true
      expect(not map.compass_shown, "R69: hidden while facing north")
      map:rotate(45)
      map:settle()
      expect(map.compass_shown, "R69: shown once rotated")
      map:snapshot("\(turnedPath)")
      map:tap_compass()
      map:settle()
      expect_eq(map.camera.bearing, 0, "R69: the tap orients the camera north")
      expect(not map.compass_shown, "R69: and the compass hides")
      map:snapshot("\(northPath)")
      print(pcall(function() map.compass_button = "yes" end))
      """)
    let outcome = ScriptRunner.run(folder.file("demo.lua"), options: .forTests)
    #expect(outcome.error == nil)
    #expect(outcome.failures.isEmpty, "\(outcome.failures)")
    let turned = try String(contentsOfFile: turnedPath, encoding: .utf8)
    let north = try String(contentsOfFile: northPath, encoding: .utf8)
    #expect(turned.contains("<g class=\"compass\" data-bearing=\"315\""))
    #expect(turned.contains("rotate(-315)"), "the needle points north on the screen")
    #expect(!north.contains("class=\"compass\""))
    let logs = outcome.records.filter { $0.event == .log }.compactMap(\.message)
    #expect(logs.count == 1 && logs[0].hasPrefix("false\t") && logs[0].contains("map.compass_button"), "\(logs)")
  }
}
