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

  /// The functions that write the cases of a test file, with busted's names.
  public static let cases: [LuaHandlerSignature] = [
    LuaHandlerSignature(
      name: "describe", parameters: [LuaAPIParameter("name", "string"), LuaAPIParameter("body", "fun()")],
      returns: nil,
      doc: "Groups cases: runs `body` at once, and the cases it declares get `name` in front of theirs."),
    LuaHandlerSignature(
      name: "it", parameters: [LuaAPIParameter("name", "string"), LuaAPIParameter("body", "fun()?")],
      returns: nil,
      doc:
        "Declares a case of `waymark test`: `body` runs later, on a map of its own; a failed expectation or an error in it fails this case only. Without a body it is pending."
    ),
    LuaHandlerSignature(
      name: "before_each", parameters: [LuaAPIParameter("body", "fun()")], returns: nil,
      doc: "Runs `body` before each case of the enclosing describe (outer describes' first)."),
    LuaHandlerSignature(
      name: "after_each", parameters: [LuaAPIParameter("body", "fun()")], returns: nil,
      doc: "Runs `body` after each case of the enclosing describe (inner describes' first), even after an error."),
    LuaHandlerSignature(
      name: "pending", parameters: [LuaAPIParameter("name", "string"), LuaAPIParameter("body", "fun()?")],
      returns: nil, doc: "Declares a case that is reported as skipped and never run."),
  ]

  /// Every function a script sees beside the map's API, in that order.
  public static var all: [LuaHandlerSignature] { library + checks + cases }
}
