import Foundation
import Testing
import WaymarkTesting

@testable import WaymarkCore

/// The trace's event names are a contract (docs/trace-format.md): the core declares the
/// callbacks' events and its own records, each other module its own; a name read from a file
/// becomes an event only among the events the reader is given, and no source compares names
/// as strings.
@Suite struct TraceEventTests {
  @Test("Every event's name reads back to it, and the core's names are the 23 callbacks' and its own records'")
  func namesReadBack() {
    for event in TraceEvent.testEvents {
      #expect(TraceEvent.named(event.rawValue, in: TraceEvent.testEvents) == event, "\(event)")
      #expect(event.description == event.rawValue)
    }
    #expect(Set(TraceEvent.testEvents.map(\.rawValue)).count == TraceEvent.testEvents.count)
    #expect(TraceEvent.coreEvents.compactMap(\.callback) == DelegateCallback.allCases)
    #expect(TraceEvent.coreEvents.count == DelegateCallback.allCases.count + TraceEvent.coreRecords.count)
    #expect(TraceEvent.callback(.didTapMarker).rawValue == "did_tap_marker")
    #expect(TraceEvent.infoWindowShown.rawValue == "info_window_shown")
    #expect(TraceEvent.named("did_tap_mraker", in: TraceEvent.coreEvents) == nil)
    #expect(TraceEvent.named("", in: TraceEvent.coreEvents) == nil)
    #expect(TraceEvent.named("note", in: TraceEvent.coreEvents) == nil, "another module's record, not offered")
  }

  @Test("Events match in a switch by value, and a record matches the event it is of")
  func eventsMatchInASwitch() {
    func kind(_ record: TraceRecord) -> String {
      switch record {
      case TraceEvent.infoWindowShown, TraceEvent.infoWindowHidden: "window"
      case TraceEvent.checkFailed: "failure"
      case TraceEvent.callback(.didTapMarker): "tap"
      default: "other"
      }
    }
    #expect(kind(TraceRecord(time: 0, event: .infoWindowHidden)) == "window")
    #expect(kind(TraceRecord(time: 0, event: .checkFailed)) == "failure")
    #expect(kind(TraceRecord(time: 0, event: .callback(.didTapMarker))) == "tap")
    #expect(kind(TraceRecord(time: 0, event: .callback(.willMove))) == "other")
  }

  @Test("The core's runtime records open docs/trace-format.md's table, in its order")
  func runtimeRecordsAreTheDocumentedOnes() throws {
    let documented = try Self.documentedRuntimeRecords()
    #expect(Array(documented.prefix(TraceEvent.coreRecords.count)) == TraceEvent.coreRecords.map(\.rawValue))
  }

  /// The names in docs/trace-format.md's table of runtime records, in order.
  static func documentedRuntimeRecords() throws -> [String] {
    let page = try ArchitectureDocTests.read("docs/trace-format.md")
    let table = try #require(page.components(separatedBy: "## Runtime records").dropFirst().first)
    // Each row's first cell: `name`, or several `name`s separated by commas.
    return table.split(separator: "\n").prefix { !$0.hasPrefix("## ") }.filter { $0.hasPrefix("| `") }
      .flatMap { row in
        row.split(separator: "|")[0].split(separator: ",").map {
          $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "`"))
        }
      }
  }

  @Test("An unknown event in a trace file is an error naming the line, the field and the value")
  func unknownEventIsAnError() throws {
    let text =
      "{\"t\":0,\"event\":\"warning\",\"message\":\"hi\"}\n{\"t\":1,\"event\":\"did_tap_mraker\",\"marker\":\"m\"}\n"
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
    // The tables that spell the names: the callback table and the declarations of events.
    let tables = Set(
      try ArchitectureDocTests.swiftFiles(under: "Sources").filter {
        $0.hasSuffix("/DelegateCallback.swift") || $0.contains("TraceEvent")
      })
    #expect(tables.count >= 3, "the callbacks, the core's records, WaymarkScripting's: \(tables)")
    let names =
      try tables.flatMap { file in
        try ArchitectureDocTests.read("Sources/" + file).matches(of: /TraceEvent\(record: "([a-z_]+)"/).map {
          String($0.1)
        }
      } + DelegateCallback.allCases.map(\.name)
    #expect(names.count >= TraceEvent.coreEvents.count + 7)
    var found: [String] = []
    for file in try ArchitectureDocTests.swiftFiles(under: "Sources") where !tables.contains(file) {
      let source = try ArchitectureDocTests.read("Sources/" + file)
      for event in names {
        let name = NSRegularExpression.escapedPattern(for: "\"\(event)\"")
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
  func pageScriptsNameEventsThroughTheDeclarations() {
    #expect(TraceEvent.jsonArray([.checkFailed, .note]) == #"["check_failed","note"]"#)
    #expect(TraceEvent.jsonArray([.callback(.didChangeCameraPosition)]) == #"["did_change_camera_position"]"#)
  }
}
