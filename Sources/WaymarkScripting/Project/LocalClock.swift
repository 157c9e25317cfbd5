import Foundation
import WaymarkCore

/// Local time for a map's scripts and plugins: `clock = { start =, zone = }` in
/// `waymark.map{...}` or a project's `waymark.lua`. `start` is a local time in `zone`, an
/// IANA time zone of the system's database (Debian's tzdata, /usr/share/zoneinfo);
/// `os.time()` counts from it on the virtual clock and `os.date` formats local time in
/// `zone`, the same on every machine whatever its own time zone.
public struct LocalClock: Sendable, Equatable {
  /// The start as written: `YYYY-MM-DDTHH:MM:SS` (or `YYYY-MM-DDTHH:MM`), local time in ``zone``.
  public let start: String
  /// The IANA name of the time zone (`Australia/Melbourne`).
  public let zone: String
  /// The start when a clock names only its zone: the first moment of 2025, as the default
  /// clock (without a zone, `os.time()` starts at 2025-01-01T00:00:00Z).
  public static let defaultStart = "2025-01-01T00:00:00"
  /// The zone, from the system's database.
  public let timeZone: TimeZone
  /// The start as seconds since 1970-01-01T00:00:00Z: what `os.time()` returns at time 0.
  public let startEpoch: Int

  /// Reads a start and a zone, or throws what is wrong with them: a start not in the form
  /// `YYYY-MM-DDTHH:MM:SS` or not a real date, a zone the system's database does not have.
  /// A start that falls in a daylight-saving gap is the instant the clock jumps to.
  public init(start: String, zone: String) throws(LocalClockError) {
    guard let timeZone = TimeZone(identifier: zone) else {
      let hint = Suggestion.closest(to: zone, among: TimeZone.knownTimeZoneIdentifiers.map { $0 }).map {
        "; did you mean \($0)?"
      }
      throw LocalClockError(
        field: "zone",
        message:
          "unknown time zone '\(zone)': not in the system's IANA database (/usr/share/zoneinfo, Debian's tzdata)\(hint ?? "")"
      )
    }
    guard let components = Self.components(of: start) else {
      throw LocalClockError(
        field: "start", message: "'\(start)' is not a local time of the form YYYY-MM-DDTHH:MM:SS (2025-06-02T09:00:00)")
    }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    var wanted = DateComponents()
    (wanted.year, wanted.month, wanted.day) = (components[0], components[1], components[2])
    (wanted.hour, wanted.minute, wanted.second) = (components[3], components[4], components[5])
    // Foundation rolls a 30 February over into March: a date whose day comes back
    // different was not a real one (a daylight-saving gap moves the hour, never the day).
    guard components[3] < 24, components[4] < 60, components[5] < 60, let date = calendar.date(from: wanted),
      [.year, .month, .day].map({ calendar.component($0, from: date) }) == Array(components[0..<3])
    else {
      throw LocalClockError(field: "start", message: "'\(start)' is not a real date and time")
    }
    self.start = start
    self.zone = zone
    self.timeZone = timeZone
    self.startEpoch = Int(date.timeIntervalSince1970.rounded(.down))
  }

  /// Year, month, day, hour, minute, second of `YYYY-MM-DDTHH:MM[:SS]`, or nil.
  private static func components(of text: String) -> [Int]? {
    let bytes = Array(text.utf8)
    guard bytes.count == 16 || bytes.count == 19 else { return nil }
    let separators: [(Int, UInt8)] =
      [(4, 0x2D), (7, 0x2D), (10, 0x54), (13, 0x3A)] + (bytes.count == 19 ? [(16, 0x3A)] : [])
    for (offset, byte) in separators where bytes[offset] != byte { return nil }
    var fields: [Int] = []
    for range in [0..<4, 5..<7, 8..<10, 11..<13, 14..<16] + (bytes.count == 19 ? [17..<19] : []) {
      guard bytes[range].allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
      fields.append(Int(String(decoding: bytes[range], as: UTF8.self))!)
    }
    return fields + (bytes.count == 16 ? [0] : [])
  }
}

/// What is wrong with a clock: the field (`start`, `zone`) and why.
public struct LocalClockError: Error, Sendable, Equatable {
  /// `start` or `zone`.
  public let field: String
  /// Why, with the value.
  public let message: String
}
