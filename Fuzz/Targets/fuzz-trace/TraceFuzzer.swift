import CFuzzDriver
import Foundation
import WaymarkCore

/// One input of the fuzz target for the trace writers. The input is a JSON Lines trace when it
/// reads as one (then the reader is fuzzed too); otherwise each line of it is a record whose
/// event, marker and message are the line's tab-separated parts, so any string reaches the
/// writers. Findings, besides traps and sanitizer reports:
/// - a text-trace line holding a control character, a line or paragraph separator or a
///   bidirectional override (a forged line, a terminal escape sequence, text shown reversed);
/// - a JSON line that does not read back, or reads back as a record written differently
///   (the trace is the same bytes on every run, docs/trace-format.md).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTrace(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let input = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  let records = (try? TraceJSONReader.records(from: input)) ?? records(fromLines: input)
  for writer in [TraceText(), TraceText(showsEveryFrame: true)] {
    for line in writer.lines(records) where line.unicodeScalars.contains(where: isUnsafeOnALine) {
      fatalError("the text trace wrote a raw control character: \(TraceText.escaped(line))")
    }
  }
  for record in records {
    let line = TraceJSON.line(record)
    let again: TraceRecord
    do {
      again = try TraceJSONReader.record(from: TraceJSONReader.value(of: line), events: eventsByName)
    } catch {
      fatalError("the JSON trace wrote a line it cannot read (\(error)): \(line)")
    }
    guard TraceJSON.line(again) == line else {
      fatalError("a JSON trace line reads back as a different record:\n\(line)\n\(TraceJSON.line(again))")
    }
  }
  return 0
}

/// Whether `scalar` must not appear raw on a line of the text trace (what
/// ``TraceText/escaped(_:)`` escapes, but the backslash that starts each escape).
private func isUnsafeOnALine(_ scalar: Unicode.Scalar) -> Bool {
  switch scalar.value {
  case 0...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return true
  default: return false
  }
}

/// One record per line: `event<TAB>marker<TAB>message`, at times 0, 0.5, 1, ... An event
/// that is not a trace name (docs/trace-format.md) picks one by its length, so every kind of
/// record reaches the writers.
private func records(fromLines input: String) -> [TraceRecord] {
  let lines = input.split(separator: "\n", omittingEmptySubsequences: false)
  return lines.prefix(1000).enumerated().map { index, line in
    let parts = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
    let events = TraceEvent.coreEvents
    let event = eventsByName[parts[0]] ?? events[parts[0].utf8.count % events.count]
    var record = TraceRecord(time: Double(index) / 2, event: event)
    if parts.count > 1 { record.marker = parts[1] }
    if parts.count > 2 { record.message = parts[2] }
    return record
  }
}

/// The core's events (every callback and runtime record) by trace name.
private let eventsByName = Dictionary(
  TraceEvent.coreEvents.map { ($0.rawValue, $0) }, uniquingKeysWith: { first, _ in first })

/// libFuzzer runs ``fuzzTrace(_:_:)`` on every input (scripts/fuzz.sh passes its options).
@main enum TraceFuzzerMain {
  static func main() {
    exit(waymark_fuzz_main(CommandLine.argc, CommandLine.unsafeArgv) { fuzzTrace($0, $1) })
  }
}
