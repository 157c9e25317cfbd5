/// A kind of Swift object handed to Lua as userdata, named by its metatable.
///
/// The name is the registry key of the metatable (`luaL_newmetatable`) and
/// what Lua shows for the type (`__name`), e.g. `"waymark.Marker"`. Use one
/// name per Swift class.
package struct LuaObjectType<Object: AnyObject>: Hashable, Sendable {
  /// The metatable's name.
  package let name: String

  /// Names a userdata type.
  package init(_ name: String) { self.name = name }
}

extension LuaStack {
  /// Pushes the metatable of `type`, creating it on first use. Stack: +1.
  ///
  /// Returns true when it was created now: set `__index`, `__newindex`
  /// and other metamethods then (Swift functions work). LuaKit owns `__gc`
  /// (it releases the object), `__name`, `__tostring` and `__metatable`
  /// (scripts see `false` from `getmetatable`); do not replace `__gc`.
  @discardableResult
  package func pushMetatable<Object>(for type: LuaObjectType<Object>) -> Bool {
    LuaC.objectMetatable(L, type.name)
  }

  /// Pushes `object` as a full userdata that retains it. Stack: +1.
  ///
  /// Each push makes a new userdata (cache a ``LuaRef`` to hand the same one
  /// out again). The object is released when Lua collects the userdata or
  /// the state closes.
  package func push<Object>(_ object: Object, as type: LuaObjectType<Object>) {
    let box = Unmanaged.passRetained(object as AnyObject).toOpaque()
    LuaC.pushObject(L, box, luaKitRelease, type.name)
  }

  /// Pushes the value the host keeps with the object userdata at `index` (nil until
  /// ``setHostValue(ofObjectAt:)``): one slot an object has for whatever its host pairs with
  /// it, with no table keyed by objects to grow. Answers false, having pushed nil, when
  /// `index` holds no object userdata. Stack: +1.
  @discardableResult
  package func pushHostValue(ofObjectAt index: Int32) -> Bool {
    LuaC.pushHostValue(L, index)
  }

  /// Pops the top value into the host's value of the object userdata at `index`. Answers
  /// false, having popped it, when `index` holds no object userdata. Stack: -1.
  @discardableResult
  package func setHostValue(ofObjectAt index: Int32) -> Bool {
    LuaC.setHostValue(L, index)
  }

  /// The object at `index` if it is a userdata of `type`, else nil.
  package func object<Object>(at index: Int32, as type: LuaObjectType<Object>) -> Object? {
    guard let box = LuaC.testObject(L, index, type.name) else { return nil }
    return Unmanaged<AnyObject>.fromOpaque(box).takeUnretainedValue() as? Object
  }
}

/// How the field cache of an object type reads an object's version: a C function of the
/// object's handle, with no context, so that a read of a cached field costs one direct call
/// and no retain. Write it as a closure literal that captures nothing:
/// `{ Unmanaged<Marker>.fromOpaque(UnsafeRawPointer($0!))._withUnsafeGuaranteedRef { $0.version } }`
/// (stdlib calls only: a generic helper of LuaKit is not inlined into another module, and
/// cost the reader more than the rest of it).
package typealias LuaVersionReader = @convention(c) (_ object: LuaObjectHandle) -> UInt64

/// An object as the field cache hands it to a ``LuaVersionReader``: the opaque pointer of an
/// unretained `Unmanaged` reference to it (`Unmanaged.fromOpaque`), valid for the reader's
/// call.
package typealias LuaObjectHandle = OpaquePointer?

extension LuaStack {
  /// Sets `__index` of an object type's metatable at `index` to `body`, with the answers for
  /// the fields `cached` kept per object: read again, such a field costs no call but
  /// `version` until the object's version changes, or a field of the object is assigned
  /// through `__newindex` (``registerCacheClearingNewIndex(inMetatableAt:_:)``). `version`
  /// must change whenever the object changes in a way a cached field could see, and be cheap:
  /// every read of a cached field calls it. A table answer of a field in `copied` is handed
  /// out as a fresh shallow copy each time (what a getter building a new table gives); other
  /// answers are handed out as they are. Names past the 16th or longer than 40 bytes always
  /// call `body`. Each object of the type pushed from now on keeps a user value per cached
  /// field. Stack: 0.
  package func registerCachedIndex(
    inMetatableAt index: Int32, cached: [String], copied: Set<String> = [],
    version: LuaVersionReader, _ body: @escaping LuaFunctionBody
  ) {
    let t = absoluteIndex(index)
    newTable(fieldCount: Int32(cached.count))
    for name in cached {
      push(copied.contains(name))
      rawSetField(name, ofTableAt: -2)
    }
    push(function: "__index", body)
    LuaC.pushCachedIndex(L, metatable: t, version: version)
    rawSetField("__index", ofTableAt: t)
  }

  /// Sets `__index` of the metatable at `index` to answer the keys of the table on top (an
  /// object type's methods by name, popped) from that table, with no call into Swift, and
  /// to call `body` for any other key (properties, and the error of an unknown one). While
  /// the first value of the table `holder` refers to is set, only the object it holds gets
  /// its methods so (`false`: none), and every other object's lookups call `body` (a
  /// replaced map's methods refuse there). Stack: -1.
  package func registerMethodsIndex(inMetatableAt index: Int32, holder: LuaRef, _ body: @escaping LuaFunctionBody) {
    let t = absoluteIndex(index)
    push(holder)
    push(function: "__index", body)
    LuaC.pushMethodsIndex(L)
    rawSetField("__index", ofTableAt: t)
  }

  /// Sets `__newindex` of the metatable at `index` to `body`, emptying the object's field
  /// cache (``registerCachedIndex(inMetatableAt:cached:copied:version:_:)``) before and after it
  /// runs. Stack: 0.
  package func registerCacheClearingNewIndex(inMetatableAt index: Int32, _ body: @escaping LuaFunctionBody) {
    let t = absoluteIndex(index)
    push(function: "__newindex", body)
    LuaC.pushCacheClearingNewIndex(L)
    rawSetField("__newindex", ofTableAt: t)
  }
}
