import Foundation
import Testing

/// The same script gives the same trace in every process, with `pairs` walks over string
/// keys deciding which markers are added and tapped and what is logged, in the script and in
/// a plugin: every Lua state hashes its strings with one fixed seed (issue 30; docs/plugins.md,
/// "Order of pairs"). `Fixtures/pairs_order/expected.txt` is the golden trace; it follows
/// the seed and Lua 5.4's hash function, and changes only if they do.
@Suite struct PairsOrderTests {
  static let folder = CLI.root.appendingPathComponent("Tests/WaymarkCLITests/Fixtures/pairs_order")

  @Test func twentyFreshProcessesGiveOneTrace() throws {
    let expected = try String(contentsOf: Self.folder.appendingPathComponent("expected.txt"), encoding: .utf8)
    #expect(expected.contains("did_tap_marker") && expected.contains("is near"))
    var traces: Set<String> = []
    for _ in 0..<20 {
      let result = try CLI.run(["run", "pairs_walk.lua"], in: Self.folder)
      #expect(result.status == 0, "\(result.stderr)")
      #expect(result.stderr.isEmpty, "\(result.stderr)")
      traces.insert(result.stdout)
    }
    #expect(traces == [expected], "\(traces.count) different traces")
  }
}
