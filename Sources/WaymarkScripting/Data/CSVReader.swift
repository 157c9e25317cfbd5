/// Reads CSV as RFC 4180 writes it: fields separated by commas (or another one-byte
/// separator: `;` as spreadsheets write it where the comma is the decimal mark, a tab),
/// records by CRLF or LF, a field in double quotes may hold separators, line breaks and
/// quotes (doubled: `""`). The
/// first record is the header. Lines with nothing on them are skipped; a UTF-8 byte order
/// mark at the start is dropped. Strict where the RFC is: a quote inside an unquoted field,
/// anything but a separator after a closing quote, a quote never closed, and a record whose
/// number of fields differs from the header's are errors naming the line and column.
package struct CSVReader {
  private let bytes: [UInt8]
  /// The byte between fields.
  private let separator: UInt8
  private var offset = 0
  /// The 1-based line the reader is on.
  private(set) var line = 1
  private var lineStart = 0

  /// A reader of `bytes` whose fields `separator` separates (a comma by default).
  package init(_ bytes: [UInt8], separator: UInt8 = CSVReader.comma) {
    self.bytes = bytes
    self.separator = separator
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { offset = 3 }
    lineStart = offset
  }

  /// A record: its fields' bytes, and the line and column of each field's start.
  package struct Record {
    /// The fields, unquoted.
    package var fields: [[UInt8]] = []
    /// The line the record starts on.
    package var line = 0
    /// Where each field starts: line and column (1-based, in bytes).
    package var starts: [(line: Int, column: Int)] = []
    /// Where the record ends: line and column of its line break (or the end of the file).
    package var end: (line: Int, column: Int) = (0, 0)
  }

  /// The comma, RFC 4180's separator.
  package static let comma = UInt8(ascii: ",")

  /// The header and every record, each checked to have as many fields as the header.
  package static func read(_ bytes: [UInt8], separator: UInt8 = comma) throws(CSVError)
    -> (header: [String], rows: [Record])
  {
    var reader = CSVReader(bytes, separator: separator)
    guard let first = try reader.next() else { throw CSVError(line: 1, column: 1, "no header line") }
    var header: [String] = []
    for (index, field) in first.fields.enumerated() {
      let name = String(decoding: field, as: UTF8.self)
      let at = first.starts[index]
      guard !name.isEmpty else {
        throw CSVError(line: at.line, column: at.column, "header field \(index + 1) is empty")
      }
      if let earlier = header.firstIndex(of: name) {
        throw CSVError(
          line: at.line, column: at.column, "header field \(index + 1) \"\(name)\" repeats field \(earlier + 1)")
      }
      header.append(name)
    }
    var rows: [Record] = []
    while let record = try reader.next() {
      if record.fields.count > header.count {
        let at = record.starts[header.count]
        throw CSVError(
          line: at.line, column: at.column,
          "\(record.fields.count) fields, the header has \(header.count) (field \(header.count + 1) starts here)")
      }
      if record.fields.count < header.count {
        throw CSVError(
          line: record.end.line, column: record.end.column,
          "\(record.fields.count) field\(record.fields.count == 1 ? "" : "s"), the header has \(header.count) (missing \"\(header[record.fields.count])\")"
        )
      }
      rows.append(record)
    }
    return (header, rows)
  }

  private var column: Int { offset - lineStart + 1 }

  private mutating func newLine(after index: Int) {
    line += 1
    lineStart = index + 1
  }

  /// The next record, nil at the end; empty lines are skipped.
  package mutating func next() throws(CSVError) -> Record? {
    while offset < bytes.count, bytes[offset] == 0x0A || (bytes[offset] == 0x0D && at(offset + 1) == 0x0A) {
      offset += bytes[offset] == 0x0D ? 2 : 1
      newLine(after: offset - 1)
    }
    guard offset < bytes.count else { return nil }
    var record = Record()
    record.line = line
    while true {
      record.starts.append((line, column))
      record.fields.append(try field())
      guard offset < bytes.count else {
        record.end = (line, column)
        return record
      }
      switch bytes[offset] {
      case separator:
        offset += 1
      case 0x0A, 0x0D:
        record.end = (line, column)
        offset += bytes[offset] == 0x0D ? 2 : 1
        newLine(after: offset - 1)
        return record
      default:
        preconditionFailure("field() stops only at a separator")
      }
    }
  }

  private func at(_ index: Int) -> UInt8? { index < bytes.count ? bytes[index] : nil }

  /// One field; stops at a separator, a line break (CRLF or LF) or the end.
  private mutating func field() throws(CSVError) -> [UInt8] {
    guard at(offset) == 0x22 else {
      let start = offset
      while offset < bytes.count {
        switch bytes[offset] {
        case separator, 0x0A: return Array(bytes[start..<offset])
        case 0x0D where at(offset + 1) == 0x0A: return Array(bytes[start..<offset])
        case 0x22:
          throw CSVError(
            line: line, column: column, "a quote inside an unquoted field (quote the whole field and double the quote)")
        default: offset += 1
        }
      }
      return Array(bytes[start..<offset])
    }
    let (openLine, openColumn) = (line, column)
    offset += 1
    var value: [UInt8] = []
    while true {
      guard offset < bytes.count else {
        throw CSVError(line: openLine, column: openColumn, "a quoted field is never closed")
      }
      let byte = bytes[offset]
      if byte == 0x22 {
        if at(offset + 1) == 0x22 {
          value.append(0x22)
          offset += 2
          continue
        }
        offset += 1
        switch at(offset) {
        case nil, separator, 0x0A: return value
        case 0x0D where at(offset + 1) == 0x0A: return value
        default:
          throw CSVError(line: line, column: column, "a character after the closing quote of a field")
        }
      }
      if byte == 0x0A { newLine(after: offset) }
      value.append(byte)
      offset += 1
    }
  }
}

/// A CSV file's mistake: where (1-based line and column, in bytes) and what.
package struct CSVError: Error, Sendable, Equatable {
  /// The line.
  package let line: Int
  /// The column, in bytes.
  package let column: Int
  /// What is wrong.
  package let message: String

  init(line: Int, column: Int, _ message: String) {
    self.line = line
    self.column = column
    self.message = message
  }
}
