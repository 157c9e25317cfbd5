import Foundation
import Testing

/// The test `waymark init` writes passes in the new project: its three `describe`/`it` cases
/// (docs/testing.md, "A new project"), each run and named by its describes and its it.
@Suite struct InitProjectTestsPassTests {
  @Test func theNewProjectsTestsPass() throws {
    let project = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: project) }
    #expect(try CLI.run(["init"], in: project).status == 0)
    let test = try CLI.run(["test", "tests"], in: project)
    #expect(test.status == 0, "\(test.stdout)\(test.stderr)")
    let closing = test.stdout.split(separator: "\n").last.map(String.init) ?? ""
    #expect(closing.hasPrefix("3 passed, 0 failed"), "\(test.stdout)")
    let list = try CLI.run(["test", "tests", "--list"], in: project)
    for name in [
      "places a tap on a marker opens its window", "places a tap on a marker is handled when the marker is private",
      "places closes the window on a tap on the map",
    ] {
      #expect(list.stdout.contains(name), "\(list.stdout)")
    }
  }
}
