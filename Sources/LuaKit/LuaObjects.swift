/// A kind of Swift object handed to Lua as userdata, named by its metatable.
///
/// The name is the registry key of the metatable (`luaL_newmetatable`) and
/// what Lua shows for the type (`__name`), e.g. `"waymark.Marker"`. Use one
/// name per Swift class.
public struct LuaObjectType<Object: AnyObject>: Hashable, Sendable {
  /// The metatable's name.
  public let name: String

  /// Names a userdata type.
  public init(_ name: String) { self.name = name }
}

extension LuaStack {
  /// Pushes the metatable of `type`, creating it on first use. Stack: +1.
  ///
  /// Returns true when it was created now: set `__index`, `__newindex`
  /// and other metamethods then (Swift functions work). LuaKit owns `__gc`
  /// (it releases the object), `__name`, `__tostring` and `__metatable`
  /// (scripts see `false` from `getmetatable`); do not replace `__gc`.
  @discardableResult
  public func pushMetatable<Object>(for type: LuaObjectType<Object>) -> Bool {
    LuaC.objectMetatable(L, type.name)
  }

  /// Pushes `object` as a full userdata that retains it. Stack: +1.
  ///
  /// Each push makes a new userdata (cache a ``LuaRef`` to hand the same one
  /// out again). The object is released when Lua collects the userdata or
  /// the state closes.
  public func push<Object>(_ object: Object, as type: LuaObjectType<Object>) {
    let box = Unmanaged.passRetained(object as AnyObject).toOpaque()
    LuaC.pushObject(L, box, luaKitRelease, type.name)
  }

  /// The object at `index` if it is a userdata of `type`, else nil.
  public func object<Object>(at index: Int32, as type: LuaObjectType<Object>) -> Object? {
    guard let box = LuaC.testObject(L, index, type.name) else { return nil }
    return Unmanaged<AnyObject>.fromOpaque(box).takeUnretainedValue() as? Object
  }
}
