import Foundation
import Testing
import WaymarkCore
import WaymarkTesting

@testable import WaymarkScripting

/// The records of plugins and scripts are WaymarkScripting's own (`TraceEvent+Scripting.swift`):
/// the core declares none of them, and their traces read back through the events declared here.
@Suite struct ScriptingRecordsTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  @Test("The runtime records of docs/trace-format.md's table are the core's, then these, in its order")
  func recordsAreTheDocumentedOnes() throws {
    let page = try String(contentsOf: Self.root.appendingPathComponent("docs/trace-format.md"), encoding: .utf8)
    let table = try #require(page.components(separatedBy: "## Runtime records").dropFirst().first)
    let documented = table.split(separator: "\n").prefix { !$0.hasPrefix("## ") }.filter { $0.hasPrefix("| `") }
      .flatMap { row in
        row.split(separator: "|")[0].split(separator: ",").map {
          $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "`"))
        }
      }
    #expect(documented == (TraceEvent.coreRecords + TraceEvent.scriptingRecords).map(\.rawValue))
    #expect(TraceEvent.scriptingEvents.count == Set(TraceEvent.scriptingEvents).count, "no name declared twice")
    for record in TraceEvent.scriptingRecords {
      #expect(TraceEvent.named(record.rawValue, in: TraceEvent.coreEvents) == nil, "the core knows no \(record)")
    }
  }

  @Test func everyGoldenTraceOfTheDemosReadsBackToItsBytes() throws {
    let folder = Self.root.appendingPathComponent("Tests/WaymarkCLITests/Golden")
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".jsonl") }
    #expect(names.count >= 11)
    for name in names {
      let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
      let records = try TraceJSONReader.records(from: text, events: TraceEvent.scriptingEvents)
      #expect(records.map { TraceJSON.line($0) + "\n" }.joined() == text, "\(name)")
    }
  }

  @Test("A golden trace of a plugin host's map holds its records when told of them, and only then")
  func aGoldenTraceNamesTheRecordsItHolds() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("records-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("log.jsonl").path
    let map = try MapView(camera: CameraPosition(target: Coordinate(latitude: 0, longitude: 0), zoom: 2))
    map.log("hello", source: "guide")
    let golden = GoldenTrace(path: path, moduleRecords: TraceEvent.scriptingRecords)
    try golden.check(map.trace.records, update: true)
    try golden.check(map.trace.records, update: false)
    #expect(throws: GoldenTraceMismatch.self, "the core alone does not know log") {
      try GoldenTrace(path: path).check(map.trace.records, update: false)
    }
  }
}
