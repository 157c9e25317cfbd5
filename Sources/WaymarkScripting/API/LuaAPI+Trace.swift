import LuaKit
import WaymarkCore

extension LuaAPI {
  /// `map:trace()`: what the map did, as plain tables.
  static let traceEntries: [LuaAPIEntry] = [
    .method(
      "Map", "trace", returns: "TraceRecord[]",
      "The records the map has made so far (in a test case: since the case began), oldest first, as the objects of `--trace json` (docs/trace-format.md): the same keys and numbers; a null is nil.",
      { bridge, context in
        let map = try bridge.requireMap()
        let records = map.trace.records
        let first = min(max(bridge.traceStart, 0), records.count)
        let stack = context.stack
        stack.newTable(arrayCount: Int32(clamping: records.count - first))
        for (position, record) in records[first...].enumerated() {
          pushTraceValue(.object(record.fields), on: stack)
          stack.rawSetIndex(position + 1, ofTableAt: -2)
        }
        return 1
      })
  ]

  /// Pushes a trace value as `--trace json` writes it: numbers rounded to the trace's
  /// decimals (an integer when `--trace json` prints no decimals, as a JSON reader gives it),
  /// objects and lists as tables, null (and a non-finite number, which JSON writes as null)
  /// as nil.
  static func pushTraceValue(_ value: TraceValue, on stack: LuaStack) {
    switch value {
    case .null: stack.pushNil()
    case .bool(let flag): stack.push(flag)
    case .number(let number):
      guard number.isFinite else { return stack.pushNil() }
      let rounded = roundNumber(number, decimals: TraceRecord.decimals)
      if rounded == rounded.rounded(), abs(rounded) < 1e15 { stack.push(Int(rounded)) } else { stack.push(rounded) }
    case .string(let text): stack.push(text)
    case .list(let items):
      stack.newTable(arrayCount: Int32(clamping: items.count))
      for (index, item) in items.enumerated() {
        pushTraceValue(item, on: stack)
        // A null inside a list keeps its place: rawset of nil leaves a hole, as a JSON reader does.
        stack.rawSetIndex(index + 1, ofTableAt: -2)
      }
    case .object(let fields):
      stack.newTable(fieldCount: Int32(clamping: fields.count))
      for field in fields {
        pushTraceValue(field.value, on: stack)
        stack.rawSetField(field.key, ofTableAt: -2)
      }
    }
  }
}
