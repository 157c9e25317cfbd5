import LuaKit
import Testing

/// Loading and calling: errors carry file:line and a traceback; binary
/// chunks are refused; chunks can get their own environment.
@Suite struct LuaCallingTests {
  @Test func runtimeErrorCarriesFileLineAndTraceback() throws {
    let state = try LuaState()
    let stack = state.stack
    let source = """
      local function title(marker)
        return marker.info.title
      end
      local t = title({})
      return t
      """
    try stack.load(source, chunkName: "@plugins/x.lua")
    let error = try #require(throws: LuaError.self) { try stack.call() }
    #expect(error.kind == .runtime)
    #expect(error.status == .runtimeError)
    #expect(error.message == "plugins/x.lua:2: attempt to index a nil value (field 'info')")
    #expect(
      error.description
        == "Lua error (runtime): plugins/x.lua:2: attempt to index a nil value (field 'info')")
    let traceback = try #require(error.traceback)
    #expect(traceback.hasPrefix("stack traceback:"))
    #expect(traceback.contains("plugins/x.lua:4: in main chunk"))
    #expect(stack.top == 0)
  }

  @Test func syntaxErrorIsThrownByLoad() throws {
    let state = try LuaState()
    let error = try #require(throws: LuaError.self) {
      try state.stack.load("return return", chunkName: "@plugins/bad.lua")
    }
    #expect(error.kind == .syntax)
    #expect(error.message.hasPrefix("plugins/bad.lua:1:"))
    #expect(state.stack.top == 0)
  }

  @Test func binaryChunkIsRefused() throws {
    let state = try LuaState()
    let stack = state.stack
    try stack.run("return string.dump(function() return 42 end)", results: 1)
    let bytecode = try #require(stack.bytes(at: -1))
    stack.pop()
    #expect(bytecode.first == 0x1B)
    let error = try #require(throws: LuaError.self) {
      try stack.load(String(decoding: bytecode, as: UTF8.self), chunkName: "=dumped")
    }
    #expect(error.kind == .syntax)
    #expect(error.message.contains("attempt to load a binary chunk"))
  }

  @Test func chunkRunsInTheGivenEnvironment() throws {
    let state = try LuaState()
    let stack = state.stack
    stack.newTable()
    stack.push(7)
    stack.rawSetField("seven", ofTableAt: -2)
    try stack.run("answer = seven * 6", environmentAt: 1)
    stack.rawGetField("answer", ofTableAt: 1)
    #expect(stack.integer(at: -1) == 42)
    stack.pushGlobals()
    #expect(stack.rawGetField("answer", ofTableAt: -1) == .nil)
  }

  @Test func callPassesArgumentsAndReturnsResults() throws {
    let state = try LuaState()
    let stack = state.stack
    try stack.run("return function(a, b) return a + b, a .. b end", results: 1)
    stack.push(2)
    stack.push(3)
    try stack.call(arguments: 2, results: LuaStack.allResults)
    #expect(stack.top == 2)
    #expect(stack.integer(at: 1) == 5)
    #expect(stack.string(at: 2) == "23")
  }

  @Test func nonStringErrorValueIsDescribed() throws {
    let state = try LuaState()
    let error = try #require(throws: LuaError.self) { try state.stack.run("error({code = 1})") }
    #expect(error.message == "(error object is a table value)")
  }

  @Test func fastBooleanCallReadsTheResultAndLeavesTheStackAsFound() throws {
    let state = try LuaState()
    let stack = state.stack
    try stack.run("return function(m) return m.handled end", results: 1)
    let handler = stack.ref()
    stack.newTable()
    stack.push(true)
    stack.rawSetField("handled", ofTableAt: -2)
    let handled = stack.ref()
    stack.newTable()
    let empty = stack.ref()
    stack.push(5)
    let number = stack.ref()
    #expect(try state.callReturningBoolean(handler, with: handled) == .boolean(true))
    #expect(try state.callReturningBoolean(handler, with: empty) == .nothing)
    let error = try #require(throws: LuaError.self) {
      try state.callReturningBoolean(handler, with: number)
    }
    #expect(error.message.contains("attempt to index a number value"))
    #expect(stack.top == 0)
  }
}
