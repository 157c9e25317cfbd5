import Testing
import WaymarkCore

@testable import WaymarkScripting

/// A marker's `user_data` as every other Lua state reads it: plain tables go through a compact
/// encoding (one C call to copy, one to read back), values holding map objects through the
/// value reader, and both read back and count the same.
@Suite struct SharedUserDataTests {
  /// Prints a value with its keys sorted, floats marked `f`, strings quoted.
  static let dump = """
    local function dump(v)
      if type(v) ~= "table" then
        if math.type(v) == "float" then return "f" .. tostring(v) end
        if type(v) == "string" then return string.format("%q", v) end
        return tostring(v)
      end
      local keys = {}
      for k in pairs(v) do keys[#keys + 1] = k end
      table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
      local parts = {}
      for _, k in ipairs(keys) do parts[#parts + 1] = tostring(k) .. "=" .. dump(v[k]) end
      return "{" .. table.concat(parts, ",") .. "}"
    end
    """

  /// A plugin that assigns `value` to Sydney's user_data in setup, and one that prints it on
  /// a tap: what another state reads.
  static func readByAnother(_ value: String) throws -> [String] {
    let f = try PluginFixture([
      "a.lua": "local p = {}\nfunction p.setup(map) map:marker('sydney').user_data = \(value) end\nreturn p",
      "b.lua": "\(dump)\nlocal p = {}\nfunction p.did_tap_marker(map, m) print(dump(m.user_data)) end\nreturn p",
    ])
    try f.map.tap(f.sydney)
    #expect(f.errors.isEmpty, "\(f.errors.map { $0.message ?? "" })")
    return f.logs
  }

  @Test func aPlainTableReadsBackWholeInAnotherState() throws {
    // Integers stay integers, floats floats; strings keep every byte; a list keeps its order;
    // functions and keys that are neither strings nor integers are dropped.
    let logs = try Self.readByAnother(
      #"{ name = "a\0b", n = 3, x = 1.5, big = math.maxinteger, ok = false, tags = { "x", "y" }, "#
        + #"deep = { inner = { 1, { 2 } } }, [7] = "seven", [2.5] = "dropped", f = print, [{}] = 1 }"#)
    #expect(
      logs == [
        #"{7="seven",big=9223372036854775807,deep={inner={1=1,2={1=2}}},n=3,name="a\0b",ok=false,tags={1="x",2="y"},x=f1.5}"#
      ])
  }

  @Test func aValueHoldingAMarkerReadsBackWithTheMarker() throws {
    // A marker inside the value is the other state's own handle on the same marker.
    let logs = try Self.readByAnother(#"{ home = map:marker("melbourne"), n = 1 }"#)
    #expect(logs == [#"{home=marker "melbourne",n=1}"#])
  }

  @Test func scalarsReadBackAsThemselves() throws {
    #expect(try Self.readByAnother(#""text""#) == [#""text""#])
    #expect(try Self.readByAnother("42") == ["42"])
    #expect(try Self.readByAnother("true") == ["true"])
  }

  /// Whether assigning `value` fits a quota of `bytes` of shared user_data.
  static func fits(_ value: String, quota bytes: Int) throws -> Bool {
    var configuration = PluginHost.Configuration.forTests
    configuration.hostLimits.sharedBytes = bytes
    let f = try PluginFixture(
      ["a.lua": "local p = {}\nfunction p.setup(map) map:marker('sydney').user_data = \(value) end\nreturn p"],
      configuration: configuration)
    return f.errors.isEmpty
  }

  @Test func bothCopiesCountSixteenBytesAValueAndKeyPlusTheirStrings() throws {
    // { title = "Store 1", open = true }: the table 16, "title" 16 + 5, "Store 1" 16 + 7,
    // "open" 16 + 4, true 16: 96 bytes, whichever way the copy is made.
    let plain = #"{ title = "Store 1", open = true }"#
    #expect(try Self.fits(plain, quota: 96))
    #expect(try !Self.fits(plain, quota: 95))
    // A marker counts as a value (16), as true does: the value reader's copy, same count.
    let holdingAMarker = #"{ title = "Store 1", open = map:marker("melbourne") }"#
    #expect(try Self.fits(holdingAMarker, quota: 96))
    #expect(try !Self.fits(holdingAMarker, quota: 95))
  }

  @Test func featurePropertiesFromAddMarkersReadBackInAnotherState() throws {
    let f = try PluginFixture([
      "a.lua": """
      local p = {}
      function p.setup(map)
        map:add_markers({ type = "FeatureCollection", features = {
          { type = "Feature", id = "shop", geometry = { type = "Point", coordinates = { 151.2, -33.9 } },
            properties = { title = "Shop", rating = 4.5, hours = { 8, 17 }, open = true } },
          { type = "Feature", geometry = { type = "Point", coordinates = { 151.3, -33.8 } } },
        } })
      end
      return p
      """,
      "b.lua": """
      \(Self.dump)
      local p = {}
      function p.did_tap_marker(map, m)
        local shop = map:marker("shop")
        print(shop.title, dump(shop.user_data), dump(map:markers()[4].user_data))
      end
      return p
      """,
    ])
    try f.map.tap(f.sydney)
    #expect(f.errors.isEmpty, "\(f.errors.map { $0.message ?? "" })")
    #expect(f.logs == [#"Shop\#t{hours={1=8,2=17},open=true,rating=f4.5,title="Shop"}\#tnil"#])
  }
}
