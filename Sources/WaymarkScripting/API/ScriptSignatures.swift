/// The signatures of the functions a script sees beside the map's API: the script library
/// (`waymark.map`, the expectations), its checks (`waymark.invariant`, ...) and the case
/// functions of test files (`describe`, `it`, ...). Declared here, with the API, so the linter
/// and the LuaLS definitions know them; WaymarkScenarios installs them.
public enum ScriptSignatures {
  /// The script library's functions: `waymark.map` and the expectations.
  public static let library: [LuaHandlerSignature] = [
    LuaHandlerSignature(
      name: "waymark.map",
      parameters: [LuaAPIParameter("options", "MapOptions")], returns: "Map",
      doc:
        "Makes the map the script drives, with its plugins; calling it again retires the previous map."),
    LuaHandlerSignature(
      name: "waymark.current_map", parameters: [], returns: "Map?",
      doc:
        "The map the script drives now: the last waymark.map{} made, by the script or by a module it required (a scenario required by a test), or nil."
    ),
    LuaHandlerSignature(
      name: "expect", parameters: [LuaAPIParameter("condition", "any"), LuaAPIParameter("message", "string?")],
      returns: "any",
      doc: "Records a failed expectation (script file:line, the run exits 1) unless `condition` is true."),
    LuaHandlerSignature(
      name: "expect_eq",
      parameters: [
        LuaAPIParameter("actual", "any"), LuaAPIParameter("expected", "any"), LuaAPIParameter("message", "string?"),
      ],
      returns: "boolean",
      doc:
        "Expects `actual` to equal `expected`, tables compared deeply key by key; a failure shows both values and the path of the first difference."
    ),
    LuaHandlerSignature(
      name: "expect_near",
      parameters: [
        LuaAPIParameter("actual", "number"), LuaAPIParameter("expected", "number"),
        LuaAPIParameter("tolerance", "number?"), LuaAPIParameter("message", "string?"),
      ],
      returns: "boolean", doc: "Expects `|actual - expected| <= tolerance` (default 1e-9); a failure shows both."),
    LuaHandlerSignature(
      name: "expect_plugin_error", parameters: [LuaAPIParameter("pattern", "string")], returns: nil,
      doc:
        "Declares that a plugin_error whose message matches the Lua `pattern` is expected: `waymark test` does not fail the test for it, and the run fails if none happens."
    ),
  ]

  /// The functions of checks that hold all along: invariants and the plugin errors so far.
  public static let checks: [LuaHandlerSignature] = [
    LuaHandlerSignature(
      name: "waymark.invariant",
      parameters: [LuaAPIParameter("name", "string"), LuaAPIParameter("check", "fun(map: Map): boolean")],
      returns: nil,
      doc:
        "Declares something that must hold after every input: `check(map)` returns true when it does. `waymark fuzz` checks it after each input it makes; `waymark.check_invariants` checks it now."
    ),
    LuaHandlerSignature(
      name: "waymark.check_invariants", parameters: [LuaAPIParameter("map", "Map")], returns: "boolean",
      doc:
        "Checks the map's own invariants (at most one window, the selected marker on the map, the camera within its limits) and every `waymark.invariant`; each that does not hold is a failed expectation. Returns whether all hold."
    ),
    LuaHandlerSignature(
      name: "waymark.plugin_errors", parameters: [], returns: "PluginError[]",
      doc:
        "The plugin_error records of the run so far that no expect_plugin_error pattern matches, each { t, plugin, handler, message }: `expect_eq(waymark.plugin_errors(), {})` fails while there is one."
    ),
  ]

  /// The functions that write the cases of a test file: busted 2's test globals, with its
  /// meaning (docs/testing.md, "Cases inside a file").
  public static let cases: [LuaHandlerSignature] =
    [
      block(
        "describe",
        "A block of cases: `body` runs when the run reaches it, and the cases it declares get `name` in front of theirs."
      ),
      block("context", "The same as describe."),
      block("insulate", "A block whose globals (and package.loaded) are put back as they were when it ends."),
      block("expose", "A block whose globals stay for what follows."),
    ]
    + ["it", "spec", "test"].map { name in
      LuaHandlerSignature(
        name: name, parameters: [LuaAPIParameter("name", "string"), LuaAPIParameter("body", "fun()?")],
        returns: nil,
        doc: (name == "it" ? "" : "The same as it. ")
          + "Declares a case of `waymark test`: `body` runs later, on a map of its own; a failed expectation or an error in it fails this case only. Without a body it is pending."
      )
    } + [
      LuaHandlerSignature(
        name: "pending", parameters: [LuaAPIParameter("name", "string"), LuaAPIParameter("body", "fun()?")],
        returns: nil,
        doc:
          "Declares a case that is reported as skipped and never run; called inside a case, that case stops and is pending."
      ),
      hook("before_each", "Runs `body` before each case of the enclosing block (outer blocks' first)."),
      hook(
        "after_each", "Runs `body` after each case of the enclosing block (inner blocks' first), even after an error."),
      hook(
        "setup",
        "busted's strict_setup: runs `body` once when the enclosing block starts; if it fails, none of the block's cases runs."
      ),
      hook("teardown", "busted's strict_teardown: runs `body` once when the enclosing block ends."),
      hook(
        "strict_setup", "Runs `body` once when the enclosing block starts; if it fails, none of the block's cases runs."
      ),
      hook("strict_teardown", "Runs `body` once when the enclosing block ends."),
      hook("lazy_setup", "Runs `body` once, before the first case of the enclosing block that runs."),
      hook("lazy_teardown", "Runs `body` once when the enclosing block ends, if its lazy_setup ran."),
      hook("finally", "Inside an it: runs `body` after the case's function, even when it failed."),
      LuaHandlerSignature(
        name: "randomize",
        parameters: [LuaAPIParameter("flag", "boolean|integer?"), LuaAPIParameter("seed", "integer?")],
        returns: nil,
        doc:
          "busted's: the enclosing block runs its blocks and cases in a shuffled order (seed: the given one, else the file's, so runs repeat); randomize(false) keeps their order."
      ),
    ]

  private static func block(_ name: String, _ doc: String) -> LuaHandlerSignature {
    LuaHandlerSignature(
      name: name, parameters: [LuaAPIParameter("name", "string"), LuaAPIParameter("body", "fun()")], returns: nil,
      doc: doc)
  }

  private static func hook(_ name: String, _ doc: String) -> LuaHandlerSignature {
    LuaHandlerSignature(name: name, parameters: [LuaAPIParameter("body", "fun()")], returns: nil, doc: doc)
  }

  /// `waymark.data` and `waymark.json`, which plugins have too (`DataLibrary`).
  public static let data: [LuaHandlerSignature] = [
    LuaHandlerSignature(
      name: "waymark.data.read", parameters: [LuaAPIParameter("path", "string")], returns: "string",
      doc:
        "The bytes of a file under the data folders (a script: the project's data folders, paths relative to the project, or its own folder without one; a plugin: its own folder); at most 64 MiB."
    ),
    LuaHandlerSignature(
      name: "waymark.data.json", parameters: [LuaAPIParameter("path", "string"), LuaAPIParameter("null", "any?")],
      returns: "any", doc: "A JSON file decoded as waymark.json.decode does."),
    LuaHandlerSignature(
      name: "waymark.data.csv",
      parameters: [LuaAPIParameter("path", "string"), LuaAPIParameter("options", "{ separator: string? }?")],
      returns: "table<string, string>[]",
      doc:
        "The rows of an RFC 4180 CSV file, each a table keyed by the header line's names; every field a string. options.separator: another one-byte separator than the comma (\";\", \"\\t\")."
    ),
    LuaHandlerSignature(
      name: "waymark.data.geojson", parameters: [LuaAPIParameter("path", "string"), LuaAPIParameter("null", "any?")],
      returns: "FeatureCollection", doc: "A GeoJSON file decoded, its type checked; give it to map:add_markers."),
    LuaHandlerSignature(
      name: "waymark.json.decode", parameters: [LuaAPIParameter("text", "string"), LuaAPIParameter("null", "any?")],
      returns: "any",
      doc:
        "JSON text as plain Lua values; null becomes `null` when given (waymark.json.null, say), else nil. Errors name line and column."
    ),
    LuaHandlerSignature(
      name: "waymark.json.encode", parameters: [LuaAPIParameter("value", "any")], returns: "string",
      doc:
        "A value as JSON text, keys sorted: a table with keys 1...n is an array, one with string keys an object, {} is {}; waymark.json.null is null."
    ),
  ]

  /// Every function a script sees beside the map's API, in that order.
  public static var all: [LuaHandlerSignature] { library + checks + cases }
}
