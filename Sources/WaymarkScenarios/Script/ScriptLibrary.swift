import LuaKit
import WaymarkCore
import WaymarkScripting

/// The script-only globals: the `waymark` module (`waymark.map{...}`, `waymark.version`)
/// and the expectations `expect`, `expect_eq`, `expect_near`, `expect_plugin_error`. Their signatures
/// are data beside the map's API (`ScriptSignatures`), so `waymark types` and the linter know them.
public enum ScriptLibrary {
  /// Installs the globals into the environment table at `environment`; `values` is the
  /// state's ``ValueRendering`` table. Returns the matcher of `expect_plugin_error` patterns,
  /// `(pattern, message) -> boolean`.
  static func install(into environment: Int32, on stack: LuaStack, session: ScriptSession, values: LuaRef)
    throws(LuaError) -> LuaRef
  {
    let environment = stack.absoluteIndex(environment)
    try stack.load(prelude, chunkName: "=(script library)")
    stack.pushValue(at: environment)
    // Weak: the state lives inside the session's run, and must not keep the session alive.
    stack.push(function: "waymark.map") { [weak session] context in
      guard let session else { throw LuaFunctionError("waymark.map: the script has ended") }
      do {
        return try makeMap(context, session: session)
      } catch let error as MapError {
        throw LuaFunctionError("waymark.map: \(error.luaDescription)")
      }
    }
    stack.push(function: "fail") { [weak session] context in
      // Cut as a log record is, before it is copied: `expect(false, huge)` made the host copy,
      // escape and print every byte of the message (30 MiB took minutes).
      let room = MapView.longestLogMessage - 64
      guard let (text, length) = context.stack.string(at: 1, atMost: room) else {
        session?.fail("expectation failed")
        return 0
      }
      session?.fail(length > text.utf8.count ? text + "… (\(length - text.utf8.count) more bytes)" : text)
      return 0
    }
    stack.push(WaymarkVersion.current)
    stack.push(values)
    stack.push(function: "expect_plugin_error") { [weak session] context in
      session?.expectPluginError(try context.checkString(1), location: try context.checkString(2))
      return 0
    }
    stack.push(function: "waymark.current_map") { [weak session] context in
      if let bridge = session?.bridge { bridge.pushMap(on: context.stack) } else { context.stack.pushNil() }
      return 1
    }
    try stack.call(arguments: 7, results: 1)
    let matcher = stack.ref()
    try installChecks(into: environment, on: stack, session: session, values: values)
    return matcher
  }

  private static func makeMap(_ context: LuaCallContext, session: ScriptSession) throws -> Int32 {
    let stack = context.stack
    if stack.type(at: 1) == .none || stack.type(at: 1) == .nil { stack.newTable() }
    try context.checkTable(1)
    let shape = LuaAPIShape.mapOptions
    try shape.requireKnownFields(ofTableAt: 1, on: stack, what: "waymark.map")
    let camera = try shape.withField("camera", ofTableAt: 1, on: stack) { index throws(LuaFunctionError) in
      LuaValues.isNil(index, on: stack)
        ? CameraPosition(target: Coordinate(latitude: 0, longitude: 0), zoom: 2)
        : try CameraUpdateReader.readPosition(at: index, on: stack, what: "waymark.map camera")
    }
    let size = try shape.withField("size", ofTableAt: 1, on: stack) { index throws(LuaFunctionError) in
      guard !LuaValues.isNil(index, on: stack) else { return Size(width: 390, height: 844) }
      try LuaAPIShape.size.requireKnownFields(ofTableAt: index, on: stack, what: "waymark.map size")
      return try Size(
        width: LuaAPIShape.size.withField("width", ofTableAt: index, on: stack) { w throws(LuaFunctionError) in
          try LuaValues.number(at: w, on: stack, field: "size.width")
        },
        height: LuaAPIShape.size.withField("height", ofTableAt: index, on: stack) { h throws(LuaFunctionError) in
          try LuaValues.number(at: h, on: stack, field: "size.height")
        })
    }
    let policyName = try shape.withField("policy", ofTableAt: 1, on: stack) { index throws(LuaFunctionError) in
      try LuaValues.optionalString(at: index, on: stack, field: "policy")
    }
    let name = session.options.policy ?? policyName ?? "ios"
    guard let policy = BehaviorPolicy.presets[name] else {
      throw LuaFunctionError(
        "waymark.map: policy \"\(name)\" is not one of ios, android, web"
          + Suggestion.hint(for: name, among: BehaviorPolicy.presets.keys.sorted()))
    }
    let folders = try pluginFolders(stack, session: session)
    let map = try MapView(camera: camera, viewSize: size, policy: policy, trace: session.trace)
    let padding = try shape.withField("padding", ofTableAt: 1, on: stack) { index throws(LuaFunctionError) in
      LuaValues.isNil(index, on: stack)
        ? EdgeInsets.zero : try CameraUpdateReader.readInsets(at: index, on: stack, field: "padding", default: 0)
    }
    try map.setPadding(padding)
    let clock = try self.clock(stack)
    let settings = try self.settings(stack)
    try session.start(map: map, pluginFolders: folders, clock: clock, settings: settings, stack: stack)
    return 1
  }

  /// The map's `clock`, nil when it has none.
  private static func clock(_ stack: LuaStack) throws(LuaFunctionError) -> LocalClock? {
    try LuaAPIShape.mapOptions.withField("clock", ofTableAt: 1, on: stack) {
      index throws(LuaFunctionError) -> LocalClock? in
      guard !LuaValues.isNil(index, on: stack) else { return nil }
      guard stack.type(at: index) == .table else {
        throw LuaValues.typeError("clock", expected: "a table { start =, zone = }", at: index, on: stack)
      }
      try LuaAPIShape.clock.requireKnownFields(ofTableAt: index, on: stack, what: "waymark.map clock")
      let start = try LuaAPIShape.clock.withField("start", ofTableAt: index, on: stack) { i throws(LuaFunctionError) in
        try LuaValues.optionalString(at: i, on: stack, field: "clock.start")
      }
      let zone = try LuaAPIShape.clock.withField("zone", ofTableAt: index, on: stack) { i throws(LuaFunctionError) in
        try LuaValues.optionalString(at: i, on: stack, field: "clock.zone")
      }
      do throws(LocalClockError) {
        return try LocalClock(start: start ?? LocalClock.defaultStart, zone: zone ?? "UTC")
      } catch {
        throw LuaFunctionError("waymark.map: clock.\(error.field): \(error.message)")
      }
    }
  }

  /// The map's `settings` by plugin name, as plain data.
  private static func settings(_ stack: LuaStack) throws(LuaFunctionError) -> [String: PlainData] {
    try LuaAPIShape.mapOptions.withField("settings", ofTableAt: 1, on: stack) { index throws(LuaFunctionError) in
      guard !LuaValues.isNil(index, on: stack) else { return [:] }
      guard stack.type(at: index) == .table else {
        throw LuaValues.typeError("settings", expected: "a table of settings by plugin name", at: index, on: stack)
      }
      let data: PlainData?
      do throws(PlainData.ReadError) {
        data = try PlainData.read(at: index, on: stack)
      } catch {
        throw LuaFunctionError("waymark.map: settings\(error.path): \(error.reason)")
      }
      guard case .table(let entries) = data else { return [:] }
      var settings: [String: PlainData] = [:]
      for (key, value) in entries {
        guard case .string(let name) = key else {
          throw LuaFunctionError("waymark.map: settings: its keys are plugin names, not \(key.pathComponent)")
        }
        settings[name] = value
      }
      return settings
    }
  }

  /// The script's `plugins` list, each folder resolved against the script's folder.
  private static func pluginFolders(_ stack: LuaStack, session: ScriptSession) throws(LuaFunctionError) -> [String] {
    try LuaAPIShape.mapOptions.withField("plugins", ofTableAt: 1, on: stack) { index throws(LuaFunctionError) in
      guard !LuaValues.isNil(index, on: stack) else { return [] }
      guard stack.type(at: index) == .table else {
        throw LuaValues.typeError("plugins", expected: "a list of folder names", at: index, on: stack)
      }
      var folders: [String] = []
      var budget = LuaValues.maxFields
      let count = try LuaValues.listLength(at: index, on: stack, field: "waymark.map plugins", budget: &budget)
      for position in 1...max(1, count) {
        let type = stack.rawGetIndex(position, ofTableAt: index)
        defer { stack.pop() }
        if type == .nil { break }
        guard let folder = stack.string(at: -1) else {
          throw LuaFunctionError("plugins[\(position)]: expected a folder name, got \(stack.typeName(at: -1))")
        }
        let resolved = ScriptFiles.resolve(folder, against: session.folder)
        guard PluginFiles.isDirectory(resolved) else {
          throw LuaFunctionError(
            "waymark.map: plugins[\(position)]: no such folder \(folder) (looked for \(ScriptFiles.absolute(resolved)))"
          )
        }
        folders.append(resolved)
      }
      return folders
    }
  }

  /// Trusted Lua, run with the real globals: defines the expectations (they need the
  /// caller's line, which only `debug.getinfo` knows) and the `waymark` module.
  static let prelude = #"""
    local env, make_map, host_fail, version, values, host_expect_error, current_map = ...
    local getinfo, type, tostring, abs, find = debug.getinfo, type, values.tostring, math.abs, env.string.find
    local show, first_difference, pcall = values.show, values.first_difference, pcall

    -- The script's line that called the expectation: the first Lua function above it (an
    -- expectation called through pcall has pcall, a C function without a line, as its caller).
    local function caller()
      for level = 4, 50 do
        local info = getinfo(level, "Sl")
        if info == nil then break end
        if info.what ~= "C" then return info.short_src .. ":" .. (info.currentline or 0) end
      end
      return "?"
    end

    local function fail(message)
      host_fail(caller() .. ": " .. message)
    end

    local function prefix(message) return message and (tostring(message) .. ": ") or "" end

    env.expect = function(condition, message)
      if not condition then fail(message and tostring(message) or "expected a true value, got " .. show(condition)) end
      return condition
    end

    env.expect_eq = function(actual, expected, message)
      local path, a, b = first_difference(actual, expected)
      if path == nil then return true end
      local text = prefix(message) .. "expected " .. show(expected) .. ", got " .. show(actual)
      if path ~= "" then
        text = text .. " (first difference at " .. path .. ": expected " .. show(b) .. ", got " .. show(a) .. ")"
      end
      fail(text)
      return false
    end

    env.expect_near = function(actual, expected, tolerance, message)
      if tolerance ~= nil and type(tolerance) ~= "number" then
        error("expect_near(actual, expected, tolerance, message): tolerance must be a number, got "
          .. show(tolerance) .. (type(tolerance) == "string" and message == nil
            and " (the message comes fourth: expect_near(actual, expected, 1e-9, " .. show(tolerance) .. "))" or ""), 2)
      end
      tolerance = tolerance or 1e-9
      if type(actual) == "number" and type(expected) == "number" and abs(actual - expected) <= tolerance then
        return true
      end
      fail(prefix(message) .. "expected " .. show(expected) .. " ± " .. show(tolerance) .. ", got " .. show(actual))
      return false
    end

    env.expect_plugin_error = function(pattern)
      if type(pattern) ~= "string" then
        error("bad argument #1 to 'expect_plugin_error' (string expected, got " .. type(pattern) .. ")", 2)
      end
      local info = getinfo(2, "Sl")
      host_expect_error(pattern, info and (info.short_src .. ":" .. (info.currentline or 0)) or "?")
    end

    env.waymark = { map = make_map, current_map = current_map, version = version }

    -- Whether a plugin_error's message matches an expect_plugin_error pattern (a malformed
    -- pattern is looked for as plain text).
    return function(pattern, message)
      local ok, found = pcall(find, message, pattern)
      if ok then return found ~= nil end
      return find(message, pattern, 1, true) ~= nil
    end
    """#
}
