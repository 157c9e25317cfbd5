import Foundation
import Testing
import WaymarkCore

@testable import WaymarkScripting

/// `map:trace()`: what the map did, as the plain tables of `--trace json`.
@Suite struct MapTraceTests {
  /// Prints each record of `map:trace()` as JSON with its keys sorted, one `log` line each.
  static let encoder = """
    local function encode(value)
      local kind = type(value)
      if kind == "table" then
        local keys = {}
        for key in pairs(value) do keys[#keys + 1] = key end
        if #keys == #value then
          local items = {}
          for i = 1, #value do items[i] = encode(value[i]) end
          return "[" .. table.concat(items, ",") .. "]"
        end
        table.sort(keys)
        local items = {}
        for i, key in ipairs(keys) do items[i] = encode(key) .. ":" .. encode(value[key]) end
        return "{" .. table.concat(items, ",") .. "}"
      elseif kind == "string" then
        return '"' .. value:gsub('[%c"\\\\]', function(c) return string.format("\\\\u%04x", c:byte()) end) .. '"'
      elseif math.type(value) == "integer" then
        return string.format("%d", value)
      elseif kind == "number" then
        for digits = 15, 17 do
          local text = string.format("%." .. digits .. "g", value)
          if tonumber(text) == value then return text end
        end
      end
      return tostring(value)
    end
    local function print_trace(map)
      for _, record in ipairs(map:trace()) do print(encode(record)) end
    end

    """

  /// A value read from JSON, with the keys whose value is null left out (a Lua table cannot
  /// hold nil).
  static func withoutNulls(_ value: Any) -> Any {
    if let object = value as? [String: Any] {
      return object.filter { !($0.value is NSNull) }.mapValues(withoutNulls)
    }
    if let list = value as? [Any] { return list.map(withoutNulls) }
    return value
  }

  static func decode(_ line: String) throws -> NSObject {
    try #require(
      withoutNulls(JSONSerialization.jsonObject(with: Data(line.utf8), options: [.fragmentsAllowed])) as? NSObject)
  }

  @Test("map:trace() holds the objects of --trace json: same records, keys, values and numbers, in order")
  func theTraceIsTheJSONTrace() throws {
    let (outcome, _) = try ScriptRunnerTests().run(
      Self.encoder + """
        local map = waymark.map{ camera = { target = { lat = -37.81969, lng = 144.966085 }, zoom = 4 },
          plugins = { "plugins" } }
        local sydney = map:add_marker{ id = "sydney", position = { lat = -33.8683, lng = 151.2086 } }
        local melbourne = map:add_marker{ id = "melbourne", position = { lat = -37.81969, lng = 144.966085 },
          title = "Melbourne" }
        map:tap(sydney)
        map:settle()
        map:tap(melbourne)
        map:pan{ x = 30, y = -12.5 }
        map:settle()
        map:tap{ x = 5, y = 5 }
        print("between")
        map:long_press{ x = 120, y = 300 }
        map:settle()
        print_trace(map)
        """,
      plugins: [
        "veto.lua": """
        return { name = "veto",
          did_tap_marker = function(map, marker) return marker.id == "sydney" end,
          marker_info_window = function(map, marker) return nil end }
        """
      ])
    #expect(outcome.error == nil, "\(outcome.error ?? "")")
    #expect(outcome.failures.isEmpty, "\(outcome.failures)")
    let start = try #require(outcome.records.lastIndex { $0.event == .log && $0.message == "between" })
    let firstPrinted = try #require(outcome.records[start...].firstIndex { $0.message?.hasPrefix("{") == true })
    let traced = outcome.records[..<firstPrinted]
    let printed = outcome.records[firstPrinted...]
    #expect(traced.count == printed.count, "one table per record of --trace json")
    #expect(traced.count > 30)
    for (record, line) in zip(traced, printed) {
      let json = TraceJSON.line(record)
      #expect(try Self.decode(json) == Self.decode(line.message ?? ""), "\(json)\n\(line.message ?? "")")
    }
    let events = Set(traced.map(\.event.rawValue))
    for event in [
      "plugin_loaded", "did_tap_marker", "marker_info_window", "will_move", "did_change_camera_position",
      "did_long_press_at_coordinate", "log",
    ] {
      #expect(events.contains(event), "the comparison covers \(event)")
    }
  }

  @Test("In a test case map:trace() starts where the case began; values are plain, integers stay integers")
  func aCaseSeesItsOwnRecords() throws {
    let (outcome, _) = try ScriptRunnerTests().run(
      """
      local function make()
        local map = waymark.map{ camera = { target = { lat = 0, lng = 0 }, zoom = 10 } }
        map:add_marker{ id = "m", position = { lat = 0, lng = 0 } }
        return map
      end
      describe("trace", function()
        it("first", function()
          local map = make()
          map:tap(map:marker("m"))
          map:settle()
          local records = map:trace()
          expect_eq(records[1].event, "did_tap_marker", "the case's first record")
          local tap
          for _, r in ipairs(records) do if r.event == "did_tap_marker" then tap = r end end
          expect_eq(tap.marker, "m")
          expect_eq(tap.result, false, "R6: not handled")
          expect_eq(tap.plugin, nil, "JSON null is nil")
          expect_eq(math.type(records[1].t), "integer", "t = 0 is an integer, as a JSON reader gives it")
          records[1].event = "changed"
          expect_eq(map:trace()[1].event, "did_tap_marker", "a copy: changing it changes nothing")
        end)
        it("second", function()
          local map = make()
          map:pan{ x = 10 }
          map:settle()
          local records = map:trace()
          for _, r in ipairs(records) do
            expect(r.event ~= "did_tap_marker", "nothing of the first case")
          end
          local last
          for _, r in ipairs(records) do if r.event == "idle_at_camera_position" then last = r end end
          expect_eq(math.type(last.camera.zoom), "integer", "zoom 10")
          expect(last.camera.lng < 0 and last.camera.lng > -0.1, "R25: the camera went west, the content with the finger")
          expect_near(last.camera.lng * 1e6, math.floor(last.camera.lng * 1e6 + 0.5), 1e-6, "six decimals")
        end)
      end)
      """)
    #expect(outcome.error == nil, "\(outcome.error ?? "")")
    #expect(outcome.failures.isEmpty, "\(outcome.failures)")
    #expect(outcome.cases.map(\.name) == ["trace first", "trace second"])
    #expect(outcome.cases.allSatisfy { $0.errors.isEmpty }, "\(outcome.cases.map(\.errors))")
  }
}
