import LuaKit
import WaymarkCore

/// Loads one plugin file into a fresh sandboxed state and checks the table it returns.
/// Runs the file's top level (sandboxed, budgeted), never `setup`.
package struct PluginLoader {
  let map: MapView
  let configuration: PluginHost.Configuration
  let contentStore: ContentStore
  /// Where the instances' states report that the run must be replayed with exact counting.
  let replays: ExactReplayFlag
  /// Where errors of callbacks (timers, on_complete) of the new instance go, by its bridge.
  let reportError: (LuaMapBridge, String, LuaError) -> Void

  /// The largest plugin file accepted, in bytes.
  static let maxFileSize = 4 << 20
  /// The most fields a plugin's table may have (its handlers and lifecycle fields are 30).
  static let maxFields = 1_000

  /// The field names a plugin table may hold besides handlers.
  static let lifecycleFields = ["name", "priority", "setup", "teardown", "on_reload", "save_state", "state"]
  /// Every known field name.
  static let knownFields = lifecycleFields + DelegateCallback.allCases.map(\.name)

  /// The loaded instance and its warnings, or the errors that stopped it; and every file the
  /// load read (the plugin and the modules it required) with the bytes it read, nil for one
  /// it did not find or may not read, so that a failed load is retried once one changes.
  func load(file: String) -> (
    instance: PluginInstance?, diagnostics: [PluginDiagnostic], files: [String: LuaSource?]
  ) {
    let folder = PluginFiles.folder(of: file)
    if let escape = PluginFiles.escape(of: file, from: folder) {
      return (nil, [PluginDiagnostic(severity: .error, file: file, line: nil, message: escape)], [file: nil])
    }
    let source: LuaSource
    switch ScriptFiles.readSource(file, maxSize: Self.maxFileSize) {
    case .success(let bytes): source = bytes
    case .failure(let error):
      // The reason without the path and line, which the diagnostic names already.
      let location = file + (error.line.map { ":\($0)" } ?? "") + ": "
      let reason =
        error.message.hasPrefix(location) ? String(error.message.dropFirst(location.count)) : error.message
      return (
        nil, [PluginDiagnostic(severity: .error, file: file, line: error.line, message: reason)],
        [file: PluginFiles.read(file, inside: folder)]
      )
    }
    let modules = moduleLoader(for: file)
    modules.sources[file] = source
    do {
      let (instance, diagnostics) = try load(file: file, source: source, modules: modules)
      return (instance, diagnostics, modules.filesRead)
    } catch {
      return (nil, [diagnostic(for: error, file: file)], modules.filesRead)
    }
  }

  /// The loader of the modules that plugin `file` requires: its folder first, then the
  /// configured roots, inside the configured project.
  func moduleLoader(for file: String) -> ModuleLoader {
    ModuleLoader(
      folder: PluginFiles.folder(of: file), roots: configuration.moduleRoots, project: configuration.projectFolder)
  }

  /// What `path`, read by a load of plugin `file`, holds now, by the rule that load read it
  /// by: the plugin file only inside its own folder (links resolved, as ``load(file:)``
  /// refuses one leading out), a module as `modules` (the load's loader, else a new one of
  /// ``moduleLoader(for:)``) reads it (``ModuleLoader/currentSource(of:)``). Nil when it is
  /// gone or may not be read.
  func currentSource(of path: String, plugin file: String, modules: ModuleLoader? = nil) -> LuaSource? {
    guard path != file else { return PluginFiles.read(path, inside: PluginFiles.folder(of: file)) }
    return (modules ?? moduleLoader(for: file)).currentSource(of: path)
  }

  private func diagnostic(for error: LuaError, file: String) -> PluginDiagnostic {
    var message = error.message
    if !LuaLocation.hasLocation(message), let frame = LuaLocation.firstLuaFrame(in: error.traceback) {
      message = "\(frame): \(message)"
    }
    if let location = LuaLocation.location(of: message), !LuaLocation.names(location.file, file) {
      // An error in a module the plugin requires: the line of the plugin where it was
      // required, the module's file and line in the message, and the traceback between.
      let line = LuaLocation.luaFrames(in: error.traceback).first { $0.hasPrefix(file + ":") }
        .flatMap { Int($0.dropFirst(file.count + 1)) }
      return PluginDiagnostic(
        severity: .error, file: file, line: line,
        message: message + LuaLocation.moduleTraceback(of: message, traceback: error.traceback, file: file))
    }
    var diagnostic = PluginDiagnostic.error(file: file, luaMessage: message)
    if error.kind == .timeout || error.kind == .memory { diagnostic.message += " (while loading)" }
    return diagnostic
  }

  private func load(file: String, source: LuaSource, modules: ModuleLoader) throws(LuaError) -> (
    PluginInstance?, [PluginDiagnostic]
  ) {
    let folder = modules.folder
    let state = try LuaState(memoryLimit: configuration.memoryLimit, libraries: PluginSandbox.libraries)
    state.timeBudget = configuration.timeBudget
    state.instructionBudget = configuration.instructionBudget.map { ($0, configuration.instructionCounting) }
    let name = PluginFiles.baseName(of: file)
    let bridge = try LuaMapBridge.install(in: state, limits: configuration.hostLimits)
    bridge.logSource = name
    bridge.contentStore = contentStore
    bridge.profile = configuration.profile
    bridge.reportError = reportError
    let stack = state.stack
    bridge.attach(map, on: stack)
    let instance = PluginInstance(
      file: file, folder: folder, state: state, bridge: bridge, mapRef: bridge.mapRef!, modules: modules, name: name)
    instance.replays = replays
    // The state owns the bridge and these functions: they capture the bridge and the module
    // loader (neither holds the state), never the instance.
    bridge.values = try PluginSandbox.build(
      on: stack, now: { [bridge] in bridge.now },
      log: { [bridge] stack, index in bridge.log(try bridge.loggedText(at: index, on: stack)) },
      modules: modules.hooks, seed: Self.seed(for: name), clock: { [clock = configuration.clock] in clock })
    let lineOf = stack.ref()
    try DataLibrary.install(into: -1, on: stack, folders: DataFolders(base: folder, roots: [folder]))
    stack.pushValue(at: -1)
    modules.adoptEnvironment(on: stack)
    do {
      try stack.load(source, chunkName: "@" + file, environmentAt: -1)
      stack.remove(at: -2)
      try stack.call(arguments: 0, results: 1)
    } catch {
      instance.close()
      throw error
    }
    guard stack.type(at: -1) == .table else {
      let got = stack.typeName(at: -1)
      instance.close()
      return (
        nil,
        [
          PluginDiagnostic(
            severity: .error, file: file, line: got == "nil" ? Self.lastLine(of: source) : nil,
            message: "a plugin must return a table of handlers, got \(got)"
              + (got == "nil" ? " (end the file with `return plugin`; helper modules go in lib/)" : ""))
        ]
      )
    }
    var diagnostics: [PluginDiagnostic] = []
    read(stack: stack, into: instance, source: source, lineOf: lineOf, diagnostics: &diagnostics)
    stack.pushGlobals()  // the state's own globals, which the plugin cannot see
    stack.pushValue(at: -2)
    stack.rawSetField("__waymark_plugin", ofTableAt: -2)
    stack.pop()
    instance.table = stack.ref()
    let failed = diagnostics.contains { $0.severity == .error }
    if failed { instance.close() }
    return (failed ? nil : instance, diagnostics)
  }

  /// Reads the fields of the table on top into the instance.
  private func read(
    stack: LuaStack, into instance: PluginInstance, source: LuaSource, lineOf: LuaRef,
    diagnostics: inout [PluginDiagnostic]
  ) {
    let table = stack.top
    let file = instance.file
    func problem(
      _ field: String, _ message: String, _ severity: PluginDiagnostic.Severity = .error, line: Int? = nil
    ) {
      diagnostics.append(
        PluginDiagnostic(
          severity: severity, file: file, line: line ?? PluginFiles.line(ofField: field, in: source),
          message: message))
    }
    guard let keys = stack.sortedKeys(ofTableAt: table, atMost: Self.maxFields) else {
      return problem("", "a plugin table has more than \(Self.maxFields) fields", line: 1)
    }
    for key in keys {
      guard case .string(let field) = key else { continue }
      stack.withStackBalance {
        let type = stack.rawGetField(field, ofTableAt: table)
        let value = stack.top
        switch field {
        case "name":
          if let name = stack.string(at: value), !name.isEmpty {
            instance.name = name
            instance.bridge.logSource = name
          } else {
            problem(field, "name must be a non-empty string, got \(stack.typeName(at: value))")
          }
        case "priority":
          if let priority = stack.number(at: value), priority.isFinite {
            instance.priority = priority
          } else {
            let got = stack.number(at: value).map { "number \(formatNumber($0))" } ?? describe(stack, value)
            problem(field, "priority must be a finite number, got \(got)")
          }
        case "state": break
        case "setup", "teardown", "on_reload", "save_state":
          guard type == .function else {
            return problem(field, "\(field) must be a function, got \(stack.typeName(at: value))")
          }
          stack.pushValue(at: value)
          let ref = stack.ref()
          switch field {
          case "setup": instance.setup = ref
          case "teardown": instance.teardown = ref
          case "on_reload": instance.onReload = ref
          default: instance.saveState = ref
          }
        default:
          if let callback = DelegateCallback(name: field) {
            guard type == .function else {
              return problem(field, "\(field) must be a function, got \(stack.typeName(at: value))")
            }
            stack.pushValue(at: value)
            let handler = stack.ref()
            instance.setHandler(handler, line: lineDefined(stack, lineOf, value) ?? 0, for: callback)
          } else if type == .function {
            problem(
              field,
              "\(field): no such handler"
                + Suggestion.hint(for: field, among: Self.knownFields, otherwise: " (ignored)"),
              .warning, line: lineDefined(stack, lineOf, value))
          }
        }
      }
    }
  }

  private func describe(_ stack: LuaStack, _ index: Int32) -> String {
    if let text = stack.string(at: index) { return "string \"\(text)\"" }
    return stack.typeName(at: index)
  }

  private func lineDefined(_ stack: LuaStack, _ lineOf: LuaRef, _ function: Int32) -> Int? {
    stack.withStackBalance {
      stack.push(lineOf)
      stack.pushValue(at: function)
      guard (try? stack.call(arguments: 1, results: 1)) != nil else { return nil }
      return stack.integer(at: -1)
    }
  }

  /// The number of the last line with code (where a missing `return plugin` belongs).
  static func lastLine(of source: LuaSource) -> Int {
    let lines = source.text.split(separator: "\n", omittingEmptySubsequences: false)
    return (lines.lastIndex { !$0.allSatisfy(\.isWhitespace) } ?? 0) + 1
  }

  /// A stable seed for `math.random` from the plugin's file name (FNV-1a).
  package static func seed(for name: String) -> Int {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in name.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x100_0000_01b3
    }
    return Int(truncatingIfNeeded: hash >> 1)
  }
}
