import LuaKit
import WaymarkCore

extension LuaAPI {
  /// A view size `{ width =, height = }` at `index`: both required numbers, no other field
  /// (`map.size.width: expected a number, got string`).
  static func viewSize(at index: Int32, on stack: LuaStack, field: String) throws(LuaFunctionError) -> Size {
    guard stack.type(at: index) == .table else {
      throw LuaValues.typeError(field, expected: "a table { width =, height = }", at: index, on: stack)
    }
    let shape = LuaAPIShape.size
    try shape.requireKnownFields(ofTableAt: index, on: stack, what: field)
    return Size(
      width: try shape.withField("width", ofTableAt: index, on: stack) { w throws(LuaFunctionError) in
        try LuaValues.number(at: w, on: stack, field: "\(field).width")
      },
      height: try shape.withField("height", ofTableAt: index, on: stack) { h throws(LuaFunctionError) in
        try LuaValues.number(at: h, on: stack, field: "\(field).height")
      })
  }
}
