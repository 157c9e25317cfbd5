import Foundation

/// The abbreviations of a time zone (`AEST`, `AEDT`) read from its TZif file in the system's
/// IANA database (Debian's tzdata): Foundation names a zone by its offset (`GMT+10`), and
/// `os.date("%Z")` should say what C's says. Offsets and daylight saving come from
/// Foundation; only the names come from here.
enum ZoneAbbreviations {
  /// The system's database.
  static let folder = "/usr/share/zoneinfo"

  /// One zone's transitions and local time types.
  struct Table: Sendable {
    /// Transition times, seconds since 1970, ascending.
    var transitions: [Int64] = []
    /// The local time type index each transition starts.
    var typeIndices: [Int] = []
    /// The local time types: offset from UTC, daylight saving, abbreviation.
    var types: [(offset: Int, isDST: Bool, name: String)] = []
  }

  private static let lock = NSLock()
  nonisolated(unsafe) private static var tables: [String: Table?] = [:]

  /// The abbreviation of `zone` at `time` (seconds since 1970), whose offset and daylight
  /// saving Foundation gives, read from the file of the zone `name` (the name as the clock
  /// gave it: Foundation's `identifier` of `UTC` is `GMT`, whose file says `GMT`), else of
  /// Foundation's identifier; Foundation's own name when the database has none that fits.
  static func abbreviation(of zone: TimeZone, named name: String, at time: Int) -> String {
    let date = Date(timeIntervalSince1970: Double(time))
    let offset = zone.secondsFromGMT(for: date)
    let isDST = zone.isDaylightSavingTime(for: date)
    let fallback = zone.abbreviation(for: date) ?? zone.identifier
    guard let table = table(of: name) ?? table(of: zone.identifier), !table.types.isEmpty else { return fallback }
    var index = table.transitions.count
    while index > 0, table.transitions[index - 1] > time { index -= 1 }
    if index > 0 {
      let type = table.types[table.typeIndices[index - 1]]
      if type.offset == offset, type.isDST == isDST { return type.name }
    }
    // Past the last transition (the file's rule goes on) or before the first: the latest
    // type of the same offset and daylight saving.
    for transition in table.typeIndices.reversed() {
      let type = table.types[transition]
      if type.offset == offset, type.isDST == isDST { return type.name }
    }
    return table.types.first { $0.offset == offset && $0.isDST == isDST }?.name ?? fallback
  }

  /// The table of the zone named `identifier`, read once.
  static func table(of identifier: String) -> Table? {
    lock.lock()
    defer { lock.unlock() }
    if let known = tables[identifier] { return known }
    let read = identifier.contains("..") ? nil : FileManager.default.contents(atPath: folder + "/" + identifier)
    let table = read.flatMap { parse([UInt8]($0)) }
    tables[identifier] = table
    return table
  }

  /// Reads a TZif file (RFC 8536), its 64-bit block when it has one.
  static func parse(_ bytes: [UInt8]) -> Table? {
    func count(_ at: Int, _ i: Int) -> Int? {
      let start = at + 20 + 4 * i
      guard start + 4 <= bytes.count else { return nil }
      return bytes[start..<start + 4].reduce(0) { $0 << 8 | Int($1) }
    }
    func header(at offset: Int) -> (utc: Int, std: Int, leap: Int, time: Int, type: Int, chars: Int)? {
      guard offset + 44 <= bytes.count, bytes[offset..<offset + 4].elementsEqual("TZif".utf8),
        let utc = count(offset, 0), let std = count(offset, 1), let leap = count(offset, 2),
        let time = count(offset, 3), let type = count(offset, 4), let chars = count(offset, 5)
      else { return nil }
      return (utc, std, leap, time, type, chars)
    }
    guard let first = header(at: 0) else { return nil }
    var start = 44
    var timeSize = 4
    var counts = first
    if bytes[4] >= UInt8(ascii: "2") {
      let skipped = first.time * 5 + first.type * 6 + first.chars + first.leap * 8 + first.std + first.utc
      guard let second = header(at: 44 + skipped) else { return nil }
      start = 44 + skipped + 44
      timeSize = 8
      counts = second
    }
    let needed = counts.time * (timeSize + 1) + counts.type * 6 + counts.chars
    guard start + needed <= bytes.count else { return nil }
    func signed(_ at: Int, _ size: Int) -> Int64 {
      let raw = bytes[at..<at + size].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
      return size == 8 ? Int64(bitPattern: raw) : Int64(Int32(bitPattern: UInt32(raw)))
    }
    var table = Table()
    for i in 0..<counts.time { table.transitions.append(signed(start + i * timeSize, timeSize)) }
    let indices = start + counts.time * timeSize
    let infos = indices + counts.time
    let chars = infos + counts.type * 6
    for i in 0..<counts.time {
      let type = Int(bytes[indices + i])
      guard type < counts.type else { return nil }
      table.typeIndices.append(type)
    }
    for i in 0..<counts.type {
      let at = infos + i * 6
      let nameStart = chars + Int(bytes[at + 5])
      guard nameStart < chars + counts.chars else { return nil }
      let nameEnd = bytes[nameStart..<chars + counts.chars].firstIndex(of: 0) ?? chars + counts.chars
      table.types.append(
        (Int(signed(at, 4)), bytes[at + 4] != 0, String(decoding: bytes[nameStart..<nameEnd], as: UTF8.self)))
    }
    return table
  }
}
