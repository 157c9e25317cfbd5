import CLua
import LuaKit
import Testing

/// LuaStatus and LuaType mirror the C constants (swift-system's Errno habit).
@Suite struct LuaConstantsTests {
  @Test(arguments: [
    (LuaStatus.ok, LUA_OK), (.yield, LUA_YIELD), (.runtimeError, LUA_ERRRUN),
    (.syntaxError, LUA_ERRSYNTAX), (.memoryError, LUA_ERRMEM), (.handlerError, LUA_ERRERR),
  ])
  func statusEqualsItsCConstant(status: LuaStatus, constant: Int32) {
    #expect(status.rawValue == constant)
  }

  @Test(arguments: [
    (LuaType.none, LUA_TNONE), (.nil, LUA_TNIL), (.boolean, LUA_TBOOLEAN),
    (.lightUserdata, LUA_TLIGHTUSERDATA), (.number, LUA_TNUMBER), (.string, LUA_TSTRING),
    (.table, LUA_TTABLE), (.function, LUA_TFUNCTION), (.userdata, LUA_TUSERDATA),
    (.thread, LUA_TTHREAD),
  ])
  func typeEqualsItsCConstant(type: LuaType, constant: Int32) {
    #expect(type.rawValue == constant)
  }

  @Test func typeNamesAreLuaTypeNames() throws {
    let state = try LuaState()
    let stack = state.stack
    try stack.run("return nil, true, 1, 's', {}, print, coroutine.create(print)", results: 7)
    let names = (1...7).map { stack.type(at: Int32($0)).description }
    #expect(names == ["nil", "boolean", "number", "string", "table", "function", "thread"])
  }

  @Test func versionIsLua54() {
    #expect(LuaState.version.hasPrefix("Lua 5.4"))
  }
}
