// The only file of LuaKit that imports the C modules. Every call into the Lua
// C API goes through `LuaC`, so the rules that keep Swift frames safe from
// longjmp live in one place:
// - Host-side code runs with the memory cap off (see waymark_runtime.enforce),
//   so allocations cannot raise there.
// - Operations that may run metamethods go through protected shims.
// - Functions that raise on bad input (lua_rawget on a non-table, luaL_check*)
//   are only called after Swift has checked their preconditions.
import CLua
import CLuaShims

/// A `lua_State *` (the main thread or a coroutine).
typealias LuaThreadPointer = OpaquePointer
/// A `waymark_runtime *`: allocator accounting and watchdog view of a state.
typealias LuaRuntimePointer = UnsafeMutablePointer<waymark_runtime>
/// A `waymark_dispatch *`: a call table prepared in C (``LuaDispatchTable``).
typealias LuaDispatchPointer = UnsafeMutablePointer<waymark_dispatch>
/// The Swift side of a Lua function, called by the C trampoline.
typealias LuaSwiftFunctionPointer =
  @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Int32
/// Releases a retained box handed to C.
typealias LuaReleasePointer = @convention(c) (UnsafeMutableRawPointer?) -> Void
/// Reads an object's version from its handle: the C shape of LuaKit's `LuaVersionReader`.
typealias LuaVersionPointer = @convention(c) (OpaquePointer?) -> UInt64

enum LuaC {
  // MARK: Constants

  static var release: String { String(cString: waymark_lua_release()) }

  // MARK: State and runtime

  static func open(limit: Int) -> LuaRuntimePointer? { waymark_open(limit) }
  /// Why `open` refused to make a state on the linked Lua (its release), or nil.
  static var openFailure: String? { waymark_open_failure().map { String(cString: $0) } }
  static func close(_ rt: LuaRuntimePointer) { waymark_close(rt) }
  static func mainThread(_ rt: LuaRuntimePointer) -> LuaThreadPointer { waymark_main(rt) }
  static func runtime(of L: LuaThreadPointer) -> LuaRuntimePointer { waymark_runtime_of(L) }
  static func messageHandlerRef(_ rt: LuaRuntimePointer) -> Int32 { waymark_msgh_ref(rt) }
  static func host(_ rt: LuaRuntimePointer) -> UnsafeMutableRawPointer? { waymark_host(rt) }
  static func setHost(_ rt: LuaRuntimePointer, _ p: UnsafeMutableRawPointer?) {
    waymark_set_host(rt, p)
  }
  static func openLibraries(_ L: LuaThreadPointer, _ mask: UInt32) { waymark_openlibs(L, mask) }
  static func memoryInUse(_ rt: LuaRuntimePointer) -> Int { waymark_memory_in_use(rt) }
  static func memoryPeak(_ rt: LuaRuntimePointer) -> Int { waymark_memory_peak(rt) }
  static func resetPeak(_ rt: LuaRuntimePointer) { waymark_reset_peak(rt) }
  static func memoryLimit(_ rt: LuaRuntimePointer) -> Int { waymark_memory_limit(rt) }
  static func setMemoryLimit(_ rt: LuaRuntimePointer, _ n: Int) { waymark_set_memory_limit(rt, n) }
  static func budget(_ rt: LuaRuntimePointer) -> UInt32 { waymark_budget(rt) }
  static func setBudget(_ rt: LuaRuntimePointer, _ ms: UInt32) { waymark_set_budget(rt, ms) }
  static func hasHook(_ L: LuaThreadPointer) -> Bool { waymark_has_hook(L) != 0 }
  static func timedOut(_ rt: LuaRuntimePointer) -> Bool { waymark_timed_out(rt) != 0 }
  static func setInstructionBudget(_ rt: LuaRuntimePointer, _ instructions: UInt64, exact: Bool) {
    waymark_set_instruction_budget(rt, instructions, exact ? 1 : 0)
  }
  static func instructionBudget(_ rt: LuaRuntimePointer) -> UInt64 { waymark_instruction_budget(rt) }
  static func countsExactly(_ rt: LuaRuntimePointer) -> Bool { waymark_counts_exactly(rt) != 0 }
  static func coverageStart() { waymark_coverage_start() }
  static func coverageStop() { waymark_coverage_stop() }
  static func coverageFiles() -> [(name: String, lines: [(line: Int, hits: Int, kind: Int)])] {
    (0..<waymark_coverage_file_count()).map { file in
      let lines = (0..<waymark_coverage_line_count(file)).map { line in
        (
          line: Int(line), hits: Int(clamping: waymark_coverage_hits(file, line)),
          kind: Int(waymark_coverage_kind(file, line))
        )
      }
      return (String(cString: waymark_coverage_file_name(file)), lines)
    }
  }
  static func needsExactReplay(_ rt: LuaRuntimePointer) -> Bool { waymark_needs_exact_replay(rt) != 0 }
  static func collectGarbage(_ L: LuaThreadPointer) { waymark_gc_collect(L) }
  static func pauseCollector(_ L: LuaThreadPointer) -> Bool { waymark_gc_pause(L) != 0 }
  static func resumeCollector(_ L: LuaThreadPointer) { waymark_gc_resume(L) }

  // MARK: Stack

  static func getTop(_ L: LuaThreadPointer) -> Int32 { lua_gettop(L) }
  static func calledAsMethod(_ L: LuaThreadPointer) -> Bool { waymark_called_as_method(L) != 0 }
  static func setTop(_ L: LuaThreadPointer, _ i: Int32) { lua_settop(L, i) }
  static func absIndex(_ L: LuaThreadPointer, _ i: Int32) -> Int32 { lua_absindex(L, i) }
  static func checkStack(_ L: LuaThreadPointer, _ n: Int32) -> Bool { lua_checkstack(L, n) != 0 }
  static func pushValue(_ L: LuaThreadPointer, _ i: Int32) { lua_pushvalue(L, i) }
  static func insert(_ L: LuaThreadPointer, _ i: Int32) { waymark_insert(L, i) }
  static func remove(_ L: LuaThreadPointer, _ i: Int32) { waymark_remove(L, i) }
  static func type(_ L: LuaThreadPointer, _ i: Int32) -> Int32 { lua_type(L, i) }
  static func metafieldName(_ L: LuaThreadPointer, _ i: Int32) -> String? {
    guard luaL_getmetafield(L, i, "__name") != LUA_TNIL else { return nil }
    defer { waymark_pop(L, 1) }
    return lua_type(L, -1) == LUA_TSTRING ? string(L, -1) : nil
  }
  static func rawEqual(_ L: LuaThreadPointer, _ a: Int32, _ b: Int32) -> Bool {
    lua_rawequal(L, a, b) != 0
  }

  // MARK: Push and read

  static func pushNil(_ L: LuaThreadPointer) { lua_pushnil(L) }
  static func pushBoolean(_ L: LuaThreadPointer, _ b: Bool) { lua_pushboolean(L, b ? 1 : 0) }
  static func pushInteger(_ L: LuaThreadPointer, _ n: Int) { lua_pushinteger(L, lua_Integer(n)) }
  static func pushNumber(_ L: LuaThreadPointer, _ x: Double) { lua_pushnumber(L, x) }
  static func pushString(_ L: LuaThreadPointer, _ s: String) {
    var s = s
    s.withUTF8 { _ = lua_pushlstring(L, $0.baseAddress, $0.count) }
  }
  static func pushBytes(_ L: LuaThreadPointer, _ bytes: UnsafeRawBufferPointer) {
    _ = lua_pushlstring(L, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), bytes.count)
  }
  static func toBoolean(_ L: LuaThreadPointer, _ i: Int32) -> Bool { lua_toboolean(L, i) != 0 }
  static func toInteger(_ L: LuaThreadPointer, _ i: Int32) -> Int? {
    var ok: Int32 = 0
    let n = waymark_tointeger(L, i, &ok)
    return ok != 0 ? Int(n) : nil
  }
  static func toNumber(_ L: LuaThreadPointer, _ i: Int32) -> Double? {
    var ok: Int32 = 0
    let x = waymark_tonumber(L, i, &ok)
    return ok != 0 ? x : nil
  }
  static func isInteger(_ L: LuaThreadPointer, _ i: Int32) -> Bool { lua_isinteger(L, i) != 0 }
  /// The bytes of the string at `i` (callers check the type first: numbers
  /// would be converted in place).
  static func withStringBytes<R>(
    _ L: LuaThreadPointer, _ i: Int32, _ body: (UnsafeRawBufferPointer) -> R
  ) -> R {
    var count = 0
    let p = waymark_tolstring(L, i, &count)
    return body(UnsafeRawBufferPointer(start: p, count: count))
  }
  static func string(_ L: LuaThreadPointer, _ i: Int32) -> String {
    withStringBytes(L, i) { String(decoding: $0, as: UTF8.self) }
  }

  // MARK: Tables

  static func newTable(_ L: LuaThreadPointer, _ narr: Int32, _ nrec: Int32) {
    lua_createtable(L, narr, nrec)
  }
  static func rawGet(_ L: LuaThreadPointer, _ t: Int32) -> Int32 { lua_rawget(L, t) }
  static func rawSet(_ L: LuaThreadPointer, _ t: Int32) { lua_rawset(L, t) }
  static func rawGetIndex(_ L: LuaThreadPointer, _ t: Int32, _ n: Int) -> Int32 {
    lua_rawgeti(L, t, lua_Integer(n))
  }
  static func rawSetIndex(_ L: LuaThreadPointer, _ t: Int32, _ n: Int) {
    lua_rawseti(L, t, lua_Integer(n))
  }
  static func rawLength(_ L: LuaThreadPointer, _ i: Int32) -> Int { Int(lua_rawlen(L, i)) }
  static func pushList(_ L: LuaThreadPointer, _ store: Int32, _ keys: UnsafeBufferPointer<Int64>) -> Int {
    Int(waymark_push_list_from(L, store, keys.baseAddress, Int32(clamping: keys.count)))
  }
  static func wrapCluster(_ L: LuaThreadPointer, _ keys: Int32, _ count: Int, _ lat: Double, _ lng: Double) {
    waymark_wrap_cluster(L, keys, lua_Integer(count), lat, lng)
  }
  static func gatherFields(_ L: LuaThreadPointer, _ t: Int32, _ slots: Int32, _ base: Int32, _ count: Int32)
    -> Int64
  {
    Int64(waymark_gather_fields(L, t, slots, base, count))
  }
  static func isList(_ L: LuaThreadPointer, _ t: Int32, _ n: Int) -> Bool {
    waymark_is_list(L, t, lua_Integer(n)) != 0
  }
  static func numberPair(_ L: LuaThreadPointer, _ t: Int32, _ a: StaticString, _ b: StaticString) -> (Double, Double)? {
    // A StaticString literal is NUL-terminated UTF-8 at utf8Start.
    func cString(_ s: StaticString) -> UnsafePointer<CChar> {
      UnsafeRawPointer(s.utf8Start).assumingMemoryBound(to: CChar.self)
    }
    var x = 0.0
    var y = 0.0
    return waymark_number_pair(L, t, cString(a), cString(b), &x, &y) != 0 ? (x, y) : nil
  }
  static func encodePlain<R>(
    _ L: LuaThreadPointer, _ i: Int32, _ buffer: LuaPlainBuffer, _ maxValues: Int, _ maxBytes: Int,
    _ body: (UnsafeRawBufferPointer, Int) -> R
  ) -> R? {
    let size = waymark_plain_encode(L, i, &buffer.raw, Int64(maxValues), Int64(maxBytes))
    // A buffer grown for one large value is not kept for the state's life.
    defer { if buffer.raw.capacity > LuaPlainBuffer.keptCapacity { waymark_plain_release(&buffer.raw) } }
    guard size >= 0 else { return nil }
    return body(UnsafeRawBufferPointer(start: buffer.raw.bytes, count: buffer.raw.count), Int(size))
  }
  static func pushPlain(_ L: LuaThreadPointer, _ bytes: UnsafeRawBufferPointer) -> Bool {
    waymark_plain_push(L, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count) != 0
  }
  /// waymark_point_feature: the coordinates, id, title and snippet, and whether there are
  /// properties.
  static func pushFeatureKeys(_ L: LuaThreadPointer) { waymark_push_feature_keys(L) }
  static func pointFeature(_ L: LuaThreadPointer, _ i: Int32, _ keys: Int32)
    -> (longitude: Double, latitude: Double, id: String?, title: String?, snippet: String?, hasProperties: Bool)?
  {
    var raw = waymark_point()
    guard waymark_point_feature(L, i, keys, &raw) != 0 else { return nil }
    func text(_ text: waymark_text) -> String? {
      guard let bytes = text.bytes else { return nil }
      return bytes.withMemoryRebound(to: UInt8.self, capacity: text.count) {
        String(decoding: UnsafeBufferPointer(start: $0, count: text.count), as: UTF8.self)
      }
    }
    return (raw.longitude, raw.latitude, text(raw.id), text(raw.title), text(raw.snippet), raw.has_properties != 0)
  }
  static func next(_ L: LuaThreadPointer, _ t: Int32) -> Bool { lua_next(L, t) != 0 }
  static func protectedGetField(_ L: LuaThreadPointer, _ t: Int32, _ k: String) -> Int32 {
    waymark_pgetfield(L, t, k)
  }
  static func protectedSetField(_ L: LuaThreadPointer, _ t: Int32, _ k: String) -> Int32 {
    waymark_psetfield(L, t, k)
  }
  static func protectedGetIndex(_ L: LuaThreadPointer, _ t: Int32, _ n: Int) -> Int32 {
    waymark_pgeti(L, t, lua_Integer(n))
  }
  static func protectedSetIndex(_ L: LuaThreadPointer, _ t: Int32, _ n: Int) -> Int32 {
    waymark_pseti(L, t, lua_Integer(n))
  }

  static func pushGlobals(_ L: LuaThreadPointer) { waymark_pushglobaltable(L) }
  static func pushLoadedTable(_ L: LuaThreadPointer) -> Bool {
    lua_getfield(L, waymark_registryindex(), LUA_LOADED_TABLE) == LUA_TTABLE
  }

  // MARK: References

  static func ref(_ L: LuaThreadPointer) -> Int32 { luaL_ref(L, waymark_registryindex()) }
  static func unref(_ L: LuaThreadPointer, _ r: Int32) { luaL_unref(L, waymark_registryindex(), r) }
  static func pushRef(_ L: LuaThreadPointer, _ r: Int32) {
    lua_rawgeti(L, waymark_registryindex(), lua_Integer(r))
  }
  static var nilRef: Int32 { LUA_REFNIL }

  // MARK: Loading and calling

  static func loadText(_ L: LuaThreadPointer, _ source: UnsafeRawBufferPointer, _ chunkName: String) -> Int32 {
    waymark_load(L, source.baseAddress?.assumingMemoryBound(to: CChar.self), source.count, chunkName, "t")
  }
  /// Sets the first upvalue (_ENV of a main chunk) of the function at `f`
  /// to the value on top (popped).
  static func setFirstUpvalue(_ L: LuaThreadPointer, _ f: Int32) -> Bool {
    lua_setupvalue(L, f, 1) != nil
  }

  /// A host protected call: arms the memory cap and the watchdog around
  /// lua_pcall. Returns the status and whether the watchdog stopped it.
  @inline(__always)
  static func protectedCall(
    _ rt: LuaRuntimePointer, _ L: LuaThreadPointer, _ nargs: Int32, _ nresults: Int32, _ msgh: Int32
  ) -> (status: Int32, timedOut: Bool) {
    var call = waymark_call()
    waymark_call_begin(rt, L, &call)
    let status = waymark_pcall(L, nargs, nresults, msgh)
    let timedOut = waymark_call_end(rt, L, &call) != 0
    return (status, timedOut)
  }

  // MARK: Swift functions and objects

  static func pushSwiftFunction(
    _ L: LuaThreadPointer, _ fn: LuaSwiftFunctionPointer, _ box: UnsafeMutableRawPointer,
    _ release: LuaReleasePointer
  ) {
    waymark_push_swift_function(L, fn, box, release)
  }
  static var raiseWithPosition: Int32 { Int32(WAYMARK_RAISE_WITH_POSITION) }
  static var raiseAsIs: Int32 { Int32(WAYMARK_RAISE) }
  static func objectMetatable(_ L: LuaThreadPointer, _ name: String) -> Bool {
    name.withCString { waymark_object_metatable(L, $0) } != 0
  }
  static func pushObject(
    _ L: LuaThreadPointer, _ box: UnsafeMutableRawPointer, _ release: LuaReleasePointer,
    _ name: String
  ) {
    // withCString: no copy of the name (an implicit conversion made an array on every push).
    name.withCString { waymark_push_object(L, box, release, $0) }
  }
  static func pushCachedIndex(_ L: LuaThreadPointer, metatable: Int32, version: LuaVersionPointer) {
    waymark_push_cached_index(L, metatable, version)
  }
  static func pushCacheClearingNewIndex(_ L: LuaThreadPointer) { waymark_push_cache_clearing_newindex(L) }
  static func pushMethodsIndex(_ L: LuaThreadPointer) { waymark_push_methods_index(L) }
  static func pushHostValue(_ L: LuaThreadPointer, _ i: Int32) -> Bool { waymark_push_host_value(L, i) != 0 }
  static func setHostValue(_ L: LuaThreadPointer, _ i: Int32) -> Bool { waymark_set_host_value(L, i) != 0 }
  static func testObject(_ L: LuaThreadPointer, _ i: Int32, _ name: String)
    -> UnsafeMutableRawPointer?
  {
    name.withCString { waymark_test_object(L, i, $0) }
  }

  // MARK: Prepared calls (dispatch.c)

  static func newDispatch(_ L: LuaThreadPointer, slots: Int32, first: Int32) -> LuaDispatchPointer? {
    waymark_dispatch_new(L, slots, first)
  }
  static func freeDispatch(_ d: LuaDispatchPointer) { waymark_dispatch_free(d) }
  static func dispatchSetSlot(_ d: LuaDispatchPointer, _ slot: Int, _ ref: Int32?) {
    waymark_dispatch_set_slot(d, Int32(slot), ref ?? LUA_NOREF)
  }
  static func dispatchClose(_ d: LuaDispatchPointer) { waymark_dispatch_close(d) }
  @inline(__always)
  static func dispatchHas(_ d: LuaDispatchPointer, _ slot: Int) -> Bool { waymark_dispatch_has(d, Int32(slot)) != 0 }
  static func dispatchRemember(_ d: LuaDispatchPointer, _ key: Int, _ identity: UInt, _ ref: Int32) -> Bool {
    waymark_dispatch_remember(d, key, identity, ref) != 0
  }
  static var dispatchCacheSize: Int { Int(WAYMARK_DISPATCH_CACHE) }
  /// waymark_dispatch_call: a `WAYMARK_DISPATCH_*` code, with the status and whether the
  /// budget stopped the call when the code is ``dispatchError``.
  @inline(__always)
  static func dispatchCall(_ d: LuaDispatchPointer, _ slot: Int, _ key: Int, _ identity: UInt)
    -> (code: Int32, status: Int32, timedOut: Bool)
  {
    var status: Int32 = 0
    var timedOut: Int32 = 0
    let code = waymark_dispatch_call(d, Int32(slot), key, identity, &status, &timedOut)
    return (code, status, timedOut != 0)
  }
  /// waymark_dispatch_call_ref: the same with the argument's reference given.
  static func dispatchCall(_ d: LuaDispatchPointer, _ slot: Int, ref: Int32) -> (
    code: Int32, status: Int32, timedOut: Bool
  ) {
    var status: Int32 = 0
    var timedOut: Int32 = 0
    let code = waymark_dispatch_call_ref(d, Int32(slot), ref, &status, &timedOut)
    return (code, status, timedOut != 0)
  }
  static var dispatchFalse: Int32 { Int32(WAYMARK_DISPATCH_FALSE) }
  static var dispatchTrue: Int32 { Int32(WAYMARK_DISPATCH_TRUE) }
  static var dispatchNil: Int32 { Int32(WAYMARK_DISPATCH_NIL) }
  static var dispatchMiss: Int32 { Int32(WAYMARK_DISPATCH_MISS) }
  static var dispatchError: Int32 { Int32(WAYMARK_DISPATCH_ERROR) }
  static var dispatchOther: Int32 { Int32(WAYMARK_DISPATCH_OTHER) }
}

/// A buffer that ``LuaStack/encodePlain(at:into:maxValues:maxBytes:)`` reuses from one
/// value to the next, so copying many values allocates only their results.
package final class LuaPlainBuffer {
  fileprivate var raw = waymark_plain_buffer()
  /// The most bytes kept from one value to the next.
  fileprivate static let keptCapacity = 64 << 10

  /// An empty buffer.
  package init() {}

  deinit { waymark_plain_release(&raw) }
}
