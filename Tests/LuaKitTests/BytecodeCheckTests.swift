import CLua
import CLuaShims
import Testing

/// The gates of the bytecode checks (docs/plugins.md, "Known bugs of Lua 5.4.4"): the
/// repaired chunk is loaded back as binary, which Lua does not verify, so the checks rewrite
/// only what the release they were written for compiles, and refuse the rest.
@Suite struct BytecodeCheckTests {
  @Test("The checks repair Lua 5.4.4 only, trust the releases with the fixes, and refuse any other")
  func thePlanFollowsTheRelease() {
    let plans = [
      "$LuaVersion: Lua 5.4.4  Copyright (C) 1994-2022 Lua.org, PUC-Rio $": WAYMARK_REPAIR_NEEDED,
      "$LuaVersion: Lua 5.4.6  Copyright (C) 1994-2023 Lua.org, PUC-Rio $": WAYMARK_REPAIR_NOT_NEEDED,
      "Lua 5.4.7": WAYMARK_REPAIR_NOT_NEEDED,
      "Lua 5.4.5": WAYMARK_REPAIR_UNSUPPORTED,
      "Lua 5.4.3": WAYMARK_REPAIR_UNSUPPORTED,
      "Lua 5.3.6": WAYMARK_REPAIR_UNSUPPORTED,
      "Lua 5.5.0": WAYMARK_REPAIR_UNSUPPORTED,
      "Lua 5.4.4-rc1": WAYMARK_REPAIR_UNSUPPORTED,
      "LuaJIT 2.1.0": WAYMARK_REPAIR_UNSUPPORTED,
      "": WAYMARK_REPAIR_UNSUPPORTED,
    ]
    for (ident, plan) in plans {
      #expect(waymark_repair_plan(ident) == Int32(plan), "\(ident)")
    }
  }

  @Test("The linked Lua 5.4.4 passes the probe: its dump header and opcodes are the expected ones")
  func theLinkedLibraryIsSupported() {
    let reason = waymark_bytecode_checks_unsupported().map { String(cString: $0) }
    #expect(reason == nil)
  }

  @Test("A dump whose header differs in any byte (version, format, sizes, check numbers) is not read")
  func everyHeaderByteIsChecked() throws {
    let L = try #require(luaL_newstate())
    defer { lua_close(L) }
    luaL_openlibs(L)
    #expect(luaL_loadstring(L, "return string.dump(load('local a = ... return a // 2'))") == LUA_OK)
    #expect(lua_pcallk(L, 0, 1, 0, 0, nil) == LUA_OK)
    var length = 0
    let pointer = try #require(lua_tolstring(L, -1, &length))
    let dump = Array(UnsafeRawBufferPointer(start: pointer, count: length))
    #expect(waymark_dump_header_is_expected(dump, dump.count) == 1)
    #expect(waymark_dump_header_is_expected(dump, 30) == 0)
    for index in 0..<31 {
      var changed = dump
      changed[index] ^= 0x01
      #expect(waymark_dump_header_is_expected(changed, changed.count) == 0, "byte \(index)")
    }
  }
}
