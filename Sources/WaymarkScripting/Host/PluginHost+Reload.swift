import Foundation
import LuaKit
import WaymarkCore

extension PluginHost {
  /// Hot reload: reloads every plugin whose file or required modules changed, loads new
  /// files of the watched folders, unloads deleted ones, and retries files that failed
  /// before once they change. Call it between two events (never from inside a handler:
  /// then it does nothing and returns no diagnostics).
  ///
  /// A changed plugin is loaded in a fresh state first. If that fails, the old version keeps
  /// running and the error is reported (diagnostic and `plugin_error` with handler `reload`).
  /// If it loads: the old version's state is taken (`save_state()`, else its `state` field,
  /// copied as plain data), `teardown(map)` runs on the old, `setup(map)` then
  /// `on_reload(old_state, map)` on the new, and a `plugin_reloaded` record is traced.
  @discardableResult
  public func reloadChangedPlugins() -> [PluginDiagnostic] {
    guard dispatchDepth == 0 else { return [] }
    var found: [PluginDiagnostic] = []
    // A plugin whose file is gone is unloaded below, not reloaded.
    for instance in instances where hasChanged(instance) && FileManager.default.fileExists(atPath: instance.file) {
      found += reload(instance)
    }
    diagnostics += found
    var listed: [String] = []
    for folder in folders { listed += PluginFiles.pluginFiles(in: folder) }
    for instance in instances where folders.contains(instance.folder) && !listed.contains(instance.file) {
      failedReloads[instance.file] = nil
      record(.pluginUnloaded, instance)
      instances.removeAll { $0 === instance }
      unload(instance)
    }
    let retry = failedFiles.filter { file, read in hasChanged(read, plugin: file) }.map(\.key)
    let new = listed.filter { file in !instances.contains { $0.file == file } && failedFiles[file] == nil }
    if !retry.isEmpty || !new.isEmpty {
      for file in retry { failedFiles[file] = nil }
      found += loadPlugins(files: (retry + new).sorted())
    }
    return found
  }

  /// Reloads one plugin now, whether or not its files changed.
  @discardableResult
  package func reload(_ old: PluginInstance) -> [PluginDiagnostic] {
    let (loaded, problems, read) = loader.load(file: old.file)
    failedReloads[old.file] = nil
    guard let new = loaded else {
      for problem in problems where problem.severity == .error {
        record(.pluginError, old, message: problem.description, handler: "reload")
      }
      for path in old.sources.keys {  // reported once per change
        old.modules.sources[path] = loader.currentSource(of: path, plugin: old.file, modules: old.modules)
      }
      failedReloads[old.file] = read
      return problems
    }
    report(problems)
    let state = savedState(of: old)
    instances.removeAll { $0 === old }
    unload(old)
    insert(new)
    guard setUp(new) else { return problems }  // a failed setup is a failed load: retried on change
    if let onReload = new.onReload {
      callLifecycle(new, "on_reload", onReload) { stack in
        state.push(on: stack, bridge: new.bridge)
        return 1
      }
    }
    record(.pluginReloaded, new)
    return problems
  }

  /// Whether a file the plugin was built from changed, or one its last failed reload read.
  /// Each file is read again by the rule its load read it by (``PluginLoader/currentSource(of:plugin:modules:)``):
  /// a module of a modules root is outside the plugin's folder and unchanged all the same.
  private func hasChanged(_ instance: PluginInstance) -> Bool {
    instance.sources.contains { path, text in
      loader.currentSource(of: path, plugin: instance.file, modules: instance.modules) != text
    } || failedReloads[instance.file].map { hasChanged($0, plugin: instance.file) } ?? false
  }

  /// Whether any of `files`, read for the plugin `file`, no longer holds the bytes read then
  /// (nil: it was missing or could not be read), each read again by the rule that load read it by.
  func hasChanged(_ files: [String: LuaSource?], plugin file: String) -> Bool {
    let modules = loader.moduleLoader(for: file)
    return files.contains { path, bytes in loader.currentSource(of: path, plugin: file, modules: modules) != bytes }
  }

  /// `save_state()` of the old version, else its `state` field, as plain data.
  private func savedState(of instance: PluginInstance) -> PlainValue {
    guard !instance.state.isClosed else { return .nil }
    let stack = instance.state.stack
    let base = stack.top
    defer { stack.setTop(base) }
    if let save = instance.saveState, !instance.isDisabled {
      stack.push(save)
      dispatchDepth += 1
      defer { dispatchDepth -= 1 }
      do {
        try map.refusingInput(during: "save_state") { () throws(LuaError) in try stack.call(arguments: 0, results: 1) }
      } catch {
        fail(instance, handler: "save_state", error: error)
        return .nil
      }
    } else {
      stack.push(instance.table)
      stack.rawGetField("state", ofTableAt: -1)
    }
    do {
      var cuts = PlainValue.Cuts()
      let state = try PlainValue.read(
        at: -1, on: stack, bridge: instance.bridge, maxBytes: configuration.memoryLimit, cuts: &cuts)
      if let first = cuts.first {
        fail(
          instance, handler: "save_state",
          message: "\(instance.file): the state to carry over is nested deeper than \(LuaCopyBudget.maxDepth) tables: "
            + "\(cuts.count) table\(cuts.count == 1 ? " was" : "s were") dropped, the first at state\(first) "
            + "(a table that holds itself is cut there too); the rest is carried over")
      }
      return state
    } catch {
      fail(
        instance, handler: "save_state",
        message: "\(instance.file): the state to carry over was dropped: \(error.message)")
      return .nil
    }
  }
}

extension PluginHost {
  /// Every file a change of which ``reloadChangedPlugins()`` would pick up: loaded plugins and
  /// the modules they required, files that failed to load, sorted (for `--watch`).
  public var watchedFiles: [String] {
    var files = Set(failedFiles.keys)
    for read in Array(failedFiles.values) + Array(failedReloads.values) { files.formUnion(read.keys) }
    for instance in instances { files.formUnion(instance.sources.keys) }
    for folder in folders { files.formUnion(PluginFiles.pluginFiles(in: folder)) }
    return files.sorted()
  }
}
