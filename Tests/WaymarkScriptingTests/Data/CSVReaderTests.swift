import Testing

@testable import WaymarkScripting

/// `waymark.data.csv`'s reader follows RFC 4180 and names the line and column of a mistake.
@Suite struct CSVReaderTests {
  private func read(_ text: String) throws(CSVError) -> (header: [String], rows: [[String]]) {
    let (header, rows) = try CSVReader.read(Array(text.utf8))
    return (header, rows.map { $0.fields.map { String(decoding: $0, as: UTF8.self) } })
  }

  private func error(_ text: String) -> CSVError? {
    do {
      _ = try read(text)
      return nil
    } catch {
      return error
    }
  }

  @Test("Quoted fields hold commas, doubled quotes and line breaks; CRLF and LF both end records")
  func quotedFields() throws {
    let (header, rows) = try read("name,note\r\n\"Cafe, One\",\"say \"\"hi\"\"\r\nthere\"\nTwo,\n")
    #expect(header == ["name", "note"])
    #expect(rows == [["Cafe, One", "say \"hi\"\r\nthere"], ["Two", ""]])
  }

  @Test("A byte order mark is dropped, empty lines are skipped, the last line break is optional")
  func bomAndEmptyLines() throws {
    let (header, rows) = try read("\u{FEFF}a,b\n\n1,2\r\n\r\n3,\"4\"")
    #expect(header == ["a", "b"])
    #expect(rows == [["1", "2"], ["3", "4"]])
  }

  @Test("Another separator splits fields where the comma did; quoted fields may hold it")
  func otherSeparators() throws {
    let (header, rows) = try CSVReader.read(Array("a;b\n\"x;y\";3,5\n".utf8), separator: UInt8(ascii: ";"))
    #expect(header == ["a", "b"])
    #expect(rows.map { $0.fields.map { String(decoding: $0, as: UTF8.self) } } == [["x;y", "3,5"]])
    #expect(throws: CSVError(line: 2, column: 4, "a character after the closing quote of a field")) {
      try CSVReader.read(Array("a\tb\n\"x\",y\n".utf8), separator: 0x09)
    }
  }

  @Test("A row with too many or too few fields is an error at its line and column")
  func raggedRows() {
    #expect(
      error("a,b\n1,2\n3,4,5\n") == CSVError(line: 3, column: 5, "3 fields, the header has 2 (field 3 starts here)"))
    #expect(
      error("a,b,c\n1,2,3\n\"x\ny\",2\n")
        == CSVError(line: 4, column: 5, "2 fields, the header has 3 (missing \"c\")"))
  }

  @Test("Quotes out of place, a quote never closed and a bad header are errors naming where")
  func quoteMistakes() {
    #expect(error("a\nx\"y\n")?.line == 2)
    #expect(error("a\nx\"y\n")?.column == 2)
    #expect(error("a,b\n\"x\"y,2\n") == CSVError(line: 2, column: 4, "a character after the closing quote of a field"))
    #expect(error("a,b\n1,\"never\nclosed\n") == CSVError(line: 2, column: 3, "a quoted field is never closed"))
    #expect(error("a,a\n") == CSVError(line: 1, column: 3, "header field 2 \"a\" repeats field 1"))
    #expect(error("a,,c\n") == CSVError(line: 1, column: 3, "header field 2 is empty"))
    #expect(error("") == CSVError(line: 1, column: 1, "no header line"))
  }
}
