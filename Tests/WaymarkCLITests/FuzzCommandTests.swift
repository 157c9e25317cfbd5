import Foundation
import Testing

/// `waymark fuzz SCRIPT --plugins DIR`: finds a planted bug, prints the seed and the path of
/// a reproducer that `waymark run` fails on the same way.
@Suite struct FuzzCommandTests {
  @Test func aPlantedBugGetsAReproducerThatWaymarkRunFailsOn() throws {
    let folder = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let files = [
      "hidden/basket.lua": """
      local p = { name = "basket", drags = 0 }
      function p.did_end_dragging_marker(map, marker)
        p.drags = p.drags + 1
        if p.drags == 2 then error("the basket fell over") end
      end
      return p
      """,
      "tests/shop_test.lua": """
      local map = waymark.map{ camera = { target = { lat = 48.85, lng = 2.35 }, zoom = 12 } }
      map:add_marker{ id = "bakery", position = { lat = 48.85, lng = 2.35 } }
      map:add_marker{ id = "pin", position = { lat = 48.84, lng = 2.36 }, draggable = true }
      """,
    ]
    for (path, text) in files {
      let file = folder.appendingPathComponent(path)
      try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(text.utf8).write(to: file)
    }
    let fuzz = try CLI.run(
      ["fuzz", "tests/shop_test.lua", "--plugins", "hidden", "--seed", "3", "--out", "found"], in: folder)
    #expect(fuzz.status == 1, "\(fuzz.stdout)\(fuzz.stderr)")
    let lines = fuzz.stdout.split(separator: "\n").map(String.init)
    let seed = try #require(lines.first { $0.hasPrefix("seed: ") }.map { String($0.dropFirst(6)) })
    let path = try #require(lines.first { $0.hasPrefix("reproducer: ") }.map { String($0.dropFirst(12)) })
    #expect(path == "found/shop_test_fuzz_\(seed).lua")
    #expect(lines.contains("plugin_error: basket did_end_dragging_marker: hidden/basket.lua:4: the basket fell over"))
    // What it takes: drags of the pin (two that end), nothing else; a long press on the
    // draggable pin is a drag too (R18).
    let shrunk = lines.filter { $0.hasPrefix("  map:") }
    #expect((2...3).contains(shrunk.count), "\(fuzz.stdout)")
    #expect(
      shrunk.allSatisfy {
        $0.hasPrefix("  map:drag(map:marker(\"pin\")") || $0.hasPrefix("  map:long_press(map:marker(\"pin\")")
      }, "\(fuzz.stdout)")
    let run = try CLI.run(["run", path, "--trace", "none"], in: folder)
    #expect(run.status == 1, "\(run.stderr)")
    #expect(
      run.stderr.contains("plugin_error: basket did_end_dragging_marker: hidden/basket.lua:4: the basket fell over"))
    // Same seed, same run.
    let again = try CLI.run(
      ["fuzz", "tests/shop_test.lua", "--plugins", "hidden", "--seed", "3", "--out", "found"], in: folder)
    #expect(again.stdout == fuzz.stdout)
  }

  @Test func aPassingScriptExitsZeroAndBadUsageTwo() throws {
    let folder = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data("local map = waymark.map{}\nmap:add_marker{ id = 'a', position = { lat = 0, lng = 0 } }\n".utf8).write(
      to: folder.appendingPathComponent("calm.lua"))
    let calm = try CLI.run(["fuzz", "calm.lua", "--runs", "3", "--events", "20", "--seed", "1"], in: folder)
    #expect(calm.status == 0, "\(calm.stdout)\(calm.stderr)")
    #expect(calm.stdout.contains("3 run(s), 60 input(s) ("), "\(calm.stdout)")
    #expect(calm.stdout.hasSuffix("): no failure\n"))
    #expect(try CLI.run(["fuzz", "calm.lua", "--runs", "0"], in: folder).status == 2)
    #expect(try CLI.run(["fuzz"], in: folder).status == 2)
  }
}
