import Foundation
import Testing
import WaymarkCore

@testable import WaymarkScenarios
@testable import WaymarkScripting

/// `waymark.data` in scripts and plugins: plain tables from CSV, JSON and GeoJSON files,
/// read only inside the data folders, refused past them with the file and the reason.
@Suite struct DataFilesScriptTests {
  private func run(_ script: String, files: [String: String] = [:], plugins: [String: String] = [:]) throws
    -> ScriptOutcome
  {
    let folder = try PluginFolder()
    for name in ["plugins", "data", "data/deep"] {
      try FileManager.default.createDirectory(atPath: folder.file(name), withIntermediateDirectories: true)
    }
    for (name, text) in files { try folder.write(name, text) }
    for (name, source) in plugins { try folder.write("plugins/" + name, source) }
    try folder.write("demo.lua", script)
    let outcome = ScriptRunner.run(folder.file("demo.lua"), options: .forTests)
    #expect(outcome.error == nil, "\(outcome.error ?? "")")
    #expect(outcome.failures.isEmpty, "\(outcome.failures)")
    return outcome
  }

  static let stores = "id,name,hours\r\ns1,\"Cafe, One\",\"7-19\"\r\ns2,Two,\r\n"
  static let points = """
    {"type": "FeatureCollection", "features": [
      {"type": "Feature", "id": "a", "geometry": {"type": "Point", "coordinates": [144.96, -37.81]},
       "properties": {"name": "A", "open": true, "closed_on": null}}
    ]}
    """

  @Test("csv, json, geojson and read return plain tables and strings")
  func readsEachFormat() throws {
    _ = try run(
      """
      local rows = waymark.data.csv("data/stores.csv")
      expect_eq(rows, { { id = "s1", name = "Cafe, One", hours = "7-19" }, { id = "s2", name = "Two", hours = "" } })
      local g = waymark.data.geojson("data/deep/points.geojson")
      expect_eq(g.features[1].geometry.coordinates, { 144.96, -37.81 })
      expect_eq(g.features[1].properties, { name = "A", open = true }, "null is nil by default")
      local kept = waymark.data.json("data/deep/points.geojson", waymark.json.null)
      expect(kept.features[1].properties.closed_on == waymark.json.null, "or the value given for it")
      expect_eq(waymark.data.read("data/stores.csv"), \(Self.luaString(Self.stores)))
      expect_eq(waymark.json.decode('{"a":[1,2.5,"x"]}'), { a = { 1, 2.5, "x" } })
      expect_eq(math.type(waymark.json.decode("[3]")[1]), "integer")
      expect_eq(waymark.json.encode({ b = { true, false }, a = "é\\n", c = waymark.json.null }), '{"a":"é\\\\n","b":[true,false],"c":null}')
      """,
      files: ["data/stores.csv": Self.stores, "data/deep/points.geojson": Self.points])
  }

  private static func luaString(_ text: String) -> String {
    "\""
      + text.replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(of: "\r", with: "\\r")
      .replacingOccurrences(of: "\n", with: "\\n") + "\""
  }

  /// docs/plugins.md, "Data files and JSON": `waymark.data.csv(path, { separator = })` reads
  /// the files spreadsheets write with `;` and tab-separated files; a bad option names itself
  /// before the file is read.
  @Test("csv takes another one-byte separator; a bad separator or option is an error naming it")
  func csvSeparators() throws {
    _ = try run(
      #"""
      local rows = waymark.data.csv("data/semi.csv", { separator = ";" })
      expect_eq(rows, { { name = "Cafe; One", price = "3,50" }, { name = "Two", price = "4" } })
      expect_eq(waymark.data.csv("data/tabs.tsv", { separator = "\t" }), { { a = "1,5", b = "x y" } })
      local function message(options)
        local ok, err = pcall(waymark.data.csv, "data/none.csv", options)
        expect(not ok, "refused")
        return err
      end
      local expected = 'waymark.data.csv options.separator: expected one byte other than a quote or a line break (";", "\\t"), got '
      expect_eq(message({ separator = ";;" }), expected .. '";;"')
      expect_eq(message({ separator = '"' }), expected .. '"\\""')
      expect_eq(message({ separator = "\n" }), expected .. '"\\n"')
      expect_eq(message({ separator = "" }), expected .. '""')
      expect_eq(message({ sep = ";" }), "waymark.data.csv options: unknown field 'sep'; expected one of separator")
      expect_eq(message(";"), "bad argument #2 to 'waymark.data.csv' (an options table { separator = } expected, got string)")
      """#,
      files: ["data/semi.csv": "name;price\n\"Cafe; One\";3,50\nTwo;4\n", "data/tabs.tsv": "a\tb\n1,5\tx y\n"])
  }

  /// docs/plugins.md, "Data files and JSON" (a FeatureCollection's features must be a list)
  /// and "Printing values" (NaN is `nan`, whatever its sign).
  @Test("A bad file is an error naming the file, line and column; a bad value to encode names its path")
  func badFilesNameLineAndColumn() throws {
    _ = try run(
      """
      local ok, message = pcall(function() return waymark.data.csv("data/ragged.csv") end)
      expect(not ok and message:find("demo.lua:1: waymark.data.csv: data/ragged.csv:3:5: 3 fields, the header has 2", 1, true), message)
      ok, message = pcall(function() return waymark.data.json("data/bad.json") end)
      expect(not ok and message:find("waymark.data.json: data/bad.json:2:3: ',' or '}' expected, found '\\"'", 1, true), message)
      ok, message = pcall(function() return waymark.data.geojson("data/bad.json.geojson") end)
      expect(not ok and message:find('"type" is "Thing", not one of FeatureCollection', 1, true), message)
      ok, message = pcall(function() return waymark.json.encode({ a = { print } }) end)
      expect(not ok and message:find("cannot encode value.a[1] as JSON: a function", 1, true), message)
      ok, message = pcall(function() return waymark.json.encode({ 1, 2, x = 3 }) end)
      expect(not ok and message:find("neither 1...n nor all strings", 1, true), message)
      ok, message = pcall(function() return waymark.data.geojson("data/keyed.geojson") end)
      expect(not ok and message:find('waymark.data.geojson: data/keyed.geojson: "features": expected a list, got a table with key \\'a\\'', 1, true), message)
      for _, case in ipairs({ { 0/0, "nan" }, { -(0/0), "nan" }, { 1/0, "inf" }, { -1/0, "-inf" } }) do
        ok, message = pcall(function() return waymark.json.encode({ case[1] }) end)
        expect(not ok and message:find("cannot encode value[1] as JSON: " .. case[2] .. " has no JSON form", 1, true), message)
      end
      """,
      files: [
        "data/ragged.csv": "a,b\n1,2\n3,4,5\n", "data/bad.json": "{\"a\": 1\n  \"b\" \"c\"}",
        "data/bad.json.geojson": "{\"type\": \"Thing\"}",
        "data/keyed.geojson": "{\"type\": \"FeatureCollection\", \"features\": {\"a\": 1}}",
      ])
  }

  @Test("Paths that leave the data folders by .., an absolute path or a link are refused")
  func pathsStayInside() throws {
    let outside = try PluginFolder(["secret.csv": "a\n1\n"])
    let folder = try PluginFolder()
    try FileManager.default.createDirectory(atPath: folder.file("data"), withIntermediateDirectories: true)
    try folder.write("data/in.csv", "a\n1\n")
    try FileManager.default.createSymbolicLink(
      atPath: folder.file("data/out.csv"), withDestinationPath: outside.file("secret.csv"))
    try FileManager.default.createSymbolicLink(atPath: folder.file("data/alias.csv"), withDestinationPath: "in.csv")
    try folder.write(
      "demo.lua",
      """
      local function refused(path, why)
        local ok, message = pcall(function() return waymark.data.csv(path) end)
        expect(not ok and message:find(why, 1, true), path .. ": " .. tostring(message))
      end
      refused("../\(URL(fileURLWithPath: outside.path).lastPathComponent)/secret.csv", "outside the data folders")
      refused("\(outside.file("secret.csv"))", "an absolute path")
      refused("data/out.csv", "a link that leads out of the data folders")
      refused("data/missing.csv", "data/missing.csv: no such file")
      refused("data", "not a regular file")
      expect_eq(waymark.data.csv("data/alias.csv"), { { a = "1" } }, "a link that stays inside is read")
      expect_eq(waymark.data.csv("data/../data/in.csv"), { { a = "1" } }, "so is a path whose .. stays inside")
      """)
    let outcome = ScriptRunner.run(folder.file("demo.lua"), options: .forTests)
    #expect(outcome.error == nil, "\(outcome.error ?? "")")
    #expect(outcome.failures.isEmpty, "\(outcome.failures)")
  }

  /// docs/plugins.md, "Data files and JSON": a path that leaves the project by `..` or a link
  /// is refused, even when a data folder given is a link to where the path leads (a project
  /// file refuses such a folder; the folders never grant it either).
  @Test("A data folder that leads out of the base grants nothing, neither through itself nor by ..")
  func aDataFolderLinkedOutGrantsNothing() throws {
    let outside = try PluginFolder(["s.txt": "top secret"])
    let folder = try PluginFolder()
    try FileManager.default.createDirectory(atPath: folder.file("data"), withIntermediateDirectories: true)
    try folder.write("data/in.txt", "inside")
    try FileManager.default.createSymbolicLink(atPath: folder.file("datalink"), withDestinationPath: outside.path)
    let folders = DataFolders(base: folder.path, roots: [folder.file("data"), folder.file("datalink")])
    #expect(try folders.read("data/in.txt") == Array("inside".utf8))
    let name = URL(fileURLWithPath: outside.path).lastPathComponent
    for path in ["datalink/s.txt", "../\(name)/s.txt", "data/../../\(name)/s.txt"] {
      #expect(throws: DataFileError.self, "\(path)") { try folders.read(path) }
    }
    #expect(folders.roots == [folder.file("data")])
  }

  @Test("In a project, scripts read its data folders, paths relative to the project, and nothing else")
  func projectDataFolders() throws {
    let folder = try PluginFolder()
    for name in ["data", "scripts"] {
      try FileManager.default.createDirectory(atPath: folder.file(name), withIntermediateDirectories: true)
    }
    try folder.write("waymark.lua", "return { data = { \"data\" } }")
    try folder.write("data/stores.csv", Self.stores)
    try folder.write("scripts/local.csv", "a\n1\n")
    try folder.write(
      "scripts/demo.lua",
      """
      expect_eq(#waymark.data.csv("data/stores.csv"), 2, "relative to the project, not to the script")
      local ok, message = pcall(function() return waymark.data.csv("scripts/local.csv") end)
      expect(not ok and message:find("scripts/local.csv: outside the data folders", 1, true), message)
      """)
    let outcome = ScriptRunner.run(folder.file("scripts/demo.lua"), options: .forTests)
    #expect(outcome.error == nil && outcome.failures.isEmpty, "\(outcome.failures) \(outcome.error ?? "")")
  }

  @Test("A file past the size limit is refused from its size, without being read")
  func sizeLimit() throws {
    let folder = try PluginFolder()
    // A sparse file: 200 MB long, no blocks written; reading it whole would take seconds.
    FileManager.default.createFile(atPath: folder.file("huge.json"), contents: nil)
    let handle = try #require(FileHandle(forWritingAtPath: folder.file("huge.json")))
    try handle.truncate(atOffset: 200_000_000)
    try handle.close()
    try folder.write(
      "demo.lua",
      """
      local ok, message = pcall(function() return waymark.data.json("huge.json") end)
      expect(not ok and message:find("huge.json: 200000000 bytes, more than the 64 MiB a data file may have", 1, true), message)
      """)
    let outcome = ScriptRunner.run(folder.file("demo.lua"), options: .forTests)
    #expect(outcome.error == nil && outcome.failures.isEmpty, "\(outcome.failures) \(outcome.error ?? "")")
  }

  @Test("A plugin reads the files of its own folder, relative to it, and nothing above it")
  func pluginsReadTheirOwnFolder() throws {
    let outcome = try run(
      """
      local map = waymark.map{ plugins = { "plugins" } }
      """,
      files: ["plugins/hours.csv": "day,open\nmon,7\n", "data/stores.csv": Self.stores],
      plugins: [
        "reader.lua": """
        local rows = waymark.data.csv("hours.csv")
        local ok, message = pcall(waymark.data.csv, "../data/stores.csv")
        return { setup = function(map) print(rows[1].day .. rows[1].open, ok, message) end }
        """
      ])
    let log = outcome.records.first { $0.event == .log }?.message ?? ""
    #expect(log.hasPrefix("mon7\tfalse\twaymark.data.csv: ../data/stores.csv: outside the data folders"), "\(log)")
  }
}
