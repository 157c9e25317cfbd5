import Foundation
import Testing
import WaymarkTesting

@testable import WaymarkCore

/// The trace's event names are a contract (docs/trace-format.md): one enum names them, a name
/// read from a file becomes an event only through it, and no source compares names as strings.
@Suite struct TraceEventTests {
  @Test("Every event's name reads back to it, and the names are the 23 callbacks' and the runtime records'")
  func namesReadBack() {
    for event in TraceEvent.allCases {
      #expect(TraceEvent(rawValue: event.rawValue) == event, "\(event)")
      #expect(event.description == event.rawValue)
    }
    #expect(Set(TraceEvent.allCases.map(\.rawValue)).count == TraceEvent.allCases.count)
    #expect(TraceEvent.allCases.compactMap(\.callback) == DelegateCallback.allCases)
    #expect(TraceEvent.callback(.didTapMarker).rawValue == "did_tap_marker")
    #expect(TraceEvent.pluginError.rawValue == "plugin_error")
    #expect(TraceEvent(rawValue: "did_tap_mraker") == nil && TraceEvent(rawValue: "") == nil)
  }

  @Test("The runtime records are those of docs/trace-format.md's table, in its order")
  func runtimeRecordsAreTheDocumentedOnes() throws {
    let page = try ArchitectureDocTests.read("docs/trace-format.md")
    let table = try #require(page.components(separatedBy: "## Runtime records").dropFirst().first)
    // Each row's first cell: `name`, or several `name`s separated by commas.
    let documented = table.split(separator: "\n").prefix { !$0.hasPrefix("## ") }.filter { $0.hasPrefix("| `") }
      .flatMap { row in
        row.split(separator: "|")[0].split(separator: ",").map {
          $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "`"))
        }
      }
    let runtime = TraceEvent.allCases.filter { $0.callback == nil }.map(\.rawValue)
    #expect(runtime == documented)
  }

  @Test("An unknown event in a trace file is an error naming the line, the field and the value")
  func unknownEventIsAnError() throws {
    let text =
      "{\"t\":0,\"event\":\"log\",\"message\":\"hi\"}\n{\"t\":1,\"event\":\"did_tap_mraker\",\"marker\":\"m\"}\n"
    #expect(throws: TraceJSONReader.Failure.self) { try TraceJSONReader.records(from: text) }
    do {
      _ = try TraceJSONReader.records(from: text)
    } catch {
      #expect(
        error.description
          == "line 2: field \"event\": \"did_tap_mraker\" is neither a callback nor a runtime record (docs/trace-format.md)"
      )
    }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trace-event-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("bad.jsonl").path
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    do {
      try GoldenTrace(path: path).check([], update: false)
      Issue.record("a golden trace with an unknown event was accepted")
    } catch {
      #expect(error.description.hasPrefix(path + ": the trace differs\nnot a JSON trace: line 2: field \"event\""))
      #expect(error.description.contains("\"did_tap_mraker\""))
    }
  }

  @Test("No source compares an event name as a string: Swift and the pages' JavaScript use TraceEvent")
  func noEventNameIsComparedAsAString() throws {
    // The two tables that spell the names: the callback table and TraceEvent itself.
    let tables: Set<String> = ["WaymarkCore/Events/DelegateCallback.swift", "WaymarkCore/Trace/TraceEvent.swift"]
    var found: [String] = []
    for file in try ArchitectureDocTests.swiftFiles(under: "Sources") where !tables.contains(file) {
      let source = try ArchitectureDocTests.read("Sources/" + file)
      for event in TraceEvent.allCases {
        let name = NSRegularExpression.escapedPattern(for: "\"\(event.rawValue)\"")
        // A comparison (== != === !==, a Swift case), the start of a list of names, a lookup.
        let comparison =
          "(===?|!==?|\\bcase)\\s*\(name)|\(name)\\s*(===?|!==?)|\\[\\s*\(name)\\s*,"
          + "|\\.(has|includes|contains|hasPrefix|hasSuffix)\\(\\s*\(name)"
        if source.range(of: comparison, options: .regularExpression) != nil { found.append("\(file): \(event)") }
      }
    }
    #expect(found.isEmpty, "\(found)")
  }

  @Test("The pages' scripts get their event names from TraceEvent")
  func pageScriptsNameEventsThroughTheEnum() {
    #expect(TraceEvent.jsonArray(TraceEvent.failures) == #"["plugin_error","expect_failed","script_error"]"#)
    #expect(TraceEvent.jsonArray([.callback(.didChangeCameraPosition)]) == #"["did_change_camera_position"]"#)
  }
}
