import LuaKit
import Testing

/// Swift objects handed to Lua as userdata: typed read-back, caller-supplied
/// metamethods, and release when Lua collects them or the state closes.
@Suite struct LuaObjectTests {
  static let markerType = LuaObjectType<LifetimeTracker.Instance>("test.Marker")
  static let otherType = LuaObjectType<LifetimeTracker.Instance>("test.Other")

  @Test func objectReadsBackWithItsTypeOnly() throws {
    let state = try LuaState()
    let stack = state.stack
    let tracker = LifetimeTracker()
    let marker = tracker.make()
    stack.push(marker, as: Self.markerType)
    #expect(stack.object(at: -1, as: Self.markerType) === marker)
    #expect(stack.object(at: -1, as: Self.otherType) == nil)
    stack.newTable()
    #expect(stack.object(at: -1, as: Self.markerType) == nil)
    #expect(stack.typeName(at: -2) == "test.Marker")
  }

  @Test func eachObjectKeepsOneHostValueOfItsOwnAndOtherValuesHaveNone() throws {
    let state = try LuaState()
    let stack = state.stack
    let tracker = LifetimeTracker()
    stack.push(tracker.make(), as: Self.markerType)
    stack.push(tracker.make(), as: Self.markerType)
    #expect(stack.pushHostValue(ofObjectAt: 1))
    #expect(stack.type(at: -1) == .nil)  // nil until set
    stack.pop()
    try stack.run("return { kept = true }", results: 1)
    #expect(stack.setHostValue(ofObjectAt: 1))
    #expect(stack.top == 2)
    stack.pushHostValue(ofObjectAt: 1)
    #expect(stack.rawGetField("kept", ofTableAt: -1) == .boolean)
    stack.pop(2)
    stack.pushHostValue(ofObjectAt: 2)
    #expect(stack.type(at: -1) == .nil)  // the other object's slot is its own
    stack.pop()
    // A table is no object: nothing is kept, and the value is still popped.
    stack.newTable()
    stack.push(1)
    #expect(!stack.setHostValue(ofObjectAt: 3))
    #expect(!stack.pushHostValue(ofObjectAt: 3))
    #expect(stack.type(at: -1) == .nil && stack.top == 4)
  }

  @Test func objectsAreReleasedWhenLuaCollectsThem() throws {
    let state = try LuaState()
    let stack = state.stack
    let tracker = LifetimeTracker()
    for _ in 0..<10 {
      stack.push(tracker.make(), as: Self.markerType)
    }
    #expect(tracker.live == 10)
    state.collectGarbage()
    #expect(tracker.live == 10)  // still on the stack
    stack.pop(10)
    state.collectGarbage()
    #expect(tracker.live == 0)
  }

  @Test func objectsAreReleasedWhenTheStateCloses() throws {
    let tracker = LifetimeTracker()
    do {
      let state = try LuaState()
      let stack = state.stack
      stack.pushGlobals()
      stack.push(tracker.make(), as: Self.markerType)
      stack.rawSetField("kept", ofTableAt: -2)
      stack.push(tracker.make(), as: Self.markerType)
      _ = stack.ref()
      #expect(tracker.live == 2)
    }
    #expect(tracker.created == 2)
    #expect(tracker.live == 0)
  }

  @Test func metamethodsAreSwiftFunctions() throws {
    let state = try LuaState()
    let stack = state.stack
    let tracker = LifetimeTracker()
    let markerType = Self.markerType
    #expect(stack.pushMetatable(for: markerType))
    stack.push(function: "__index") { context in
      let marker = try context.checkObject(1, as: markerType)
      switch try context.checkString(2) {
      case "serial": context.stack.push(marker.serial)
      default: context.stack.pushNil()
      }
      return 1
    }
    stack.rawSetField("__index", ofTableAt: -2)
    stack.pop()
    #expect(!stack.pushMetatable(for: markerType))
    stack.pop()

    stack.pushGlobals()
    _ = tracker.make()
    stack.push(tracker.make(), as: markerType)
    stack.rawSetField("marker", ofTableAt: -2)
    stack.register("serial_of", inTableAt: -1) { context in
      context.stack.push(try context.checkObject(1, as: markerType).serial)
      return 1
    }
    stack.pop()
    try stack.run(
      "return marker.serial, marker.other, getmetatable(marker), tostring(marker):match('^test.Marker: ')",
      results: 4)
    #expect(stack.integer(at: 1) == 2)
    #expect(stack.type(at: 2) == .nil)
    #expect(stack.type(at: 3) == .boolean)
    #expect(stack.string(at: 4) == "test.Marker: ")
    let error = try #require(throws: LuaError.self) { try stack.run("serial_of({})") }
    #expect(
      error.message.hasSuffix("bad argument #1 to 'serial_of' (test.Marker expected, got table)"))
  }
}
