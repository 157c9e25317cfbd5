import LuaKit
import WaymarkCore

/// The marker properties of rule R1 under their Lua names, each with its LuaLS type, how to
/// push it and how to write it into ``MarkerOptions``. Shared by `map:add_marker{...}` and
/// property assignment, so both accept and refuse the same values.
struct MarkerField: Sendable {
  let name: String
  let type: String
  let doc: String
  let get: @Sendable (Marker, LuaStack) -> Void
  /// Writes the value at the index into the options; nil for read-only fields.
  let assign: (@Sendable (LuaStack, Int32, inout MarkerOptions) throws(LuaFunctionError) -> Void)?
  /// Called once the value at the index was applied to the marker (by `add_marker` or an
  /// assignment): what the bridge keeps of the Lua value itself (an icon view's table: R36).
  var didApply: (@Sendable (LuaMapBridge, LuaStack, Int32, Marker) -> Void)? = nil

  /// Every option field (`user_data` and `map` are handled by the bridge).
  static let all: [MarkerField] = [
    MarkerField(
      name: "id", type: "string",
      doc: "The marker's name in traces and scripts: the id given, else marker-N (read-only).",
      get: { m, s in s.push(m.id) }, assign: nil),
    MarkerField(
      name: "position", type: "Coordinate", doc: "Where the marker stands.",
      get: { m, s in LuaValues.push(m.position, on: s) },
      assign: { s, i, o throws(LuaFunctionError) in
        o.position = try LuaValues.coordinate(at: i, on: s, field: "marker.position")
      }),
    stringField("title", "The info window's title.", \.title, \.title),
    stringField("snippet", "The info window's second line.", \.snippet, \.snippet),
    MarkerField(
      name: "icon", type: "MarkerIcon?",
      doc:
        "nil for the default pin, { color = '#RRGGBB' } for a tinted pin, { image =, width =, height =, insets = }"
        + " (insets: the alignment rect's margins, drawn but neither tapped nor anchored: R37),"
        + " or { frames = { { image =, width =, height = }, ... }, duration = } shown in turn (R48).",
      get: { m, s in pushIcon(m.icon, insets: m.iconInsets, on: s) },
      assign: { s, i, o throws(LuaFunctionError) in (o.icon, o.iconInsets) = try readIcon(at: i, on: s) }),
    MarkerField(
      name: "icon_view", type: "IconView?",
      doc:
        "A custom view { name =, width =, height =, color = } that wins over the icon (R3); the table is the view,"
        + " read again at each frame while tracks_view_changes is on (R36).",
      get: { m, s in
        guard let view = m.iconView else { return s.pushNil() }
        s.newTable()
        s.push(view.name)
        s.rawSetField("name", ofTableAt: -2)
        s.push(view.size.width)
        s.rawSetField("width", ofTableAt: -2)
        s.push(view.size.height)
        s.rawSetField("height", ofTableAt: -2)
        if let color = view.color {
          s.push(color)
          s.rawSetField("color", ofTableAt: -2)
        }
      },
      assign: { s, i, o throws(LuaFunctionError) in
        if LuaValues.isNil(i, on: s) { return o.iconView = nil }
        o.iconView = try readIconView(at: i, on: s)
      },
      didApply: { bridge, stack, value, marker in
        // The table is the view (R36): read again at each frame while the marker tracks view changes.
        guard let map = bridge.map, marker.map === map else { return }
        let view = LuaLiveView.make(tableAt: value, on: stack, handler: "icon_view redraws") { stack, table in
          try readIconView(at: table, on: stack)
        }
        try? map.setLiveIconView(view, of: marker)
      }),
    pointField(
      "ground_anchor", "The point of the icon at the position, in unit coordinates (0.5, 1 = bottom centre).",
      \.groundAnchor, \.groundAnchor),
    pointField(
      "info_window_anchor", "Where the info window's tail points, in unit coordinates of the icon.",
      \.infoWindowAnchor, \.infoWindowAnchor),
    MarkerField(
      name: "appear_animation", type: "'none'|'pop'|'fade_in'", doc: "How the marker appears when added.",
      get: { m, s in s.push(m.appearAnimation.rawValue) },
      assign: { s, i, o throws(LuaFunctionError) in
        let name = try LuaValues.string(at: i, on: s, field: "marker.appear_animation")
        guard let value = MarkerAppearAnimation(rawValue: name) else {
          let names = MarkerAppearAnimation.allCases.map(\.rawValue)
          throw LuaFunctionError(
            "marker.appear_animation: \"\(name)\" is not one of \(names.joined(separator: ", "))"
              + Suggestion.hint(for: name, among: names))
        }
        o.appearAnimation = value
      }),
    boolField("draggable", "Whether a long press starts a drag (R18).", \.draggable, \.draggable),
    boolField("flat", "Whether the icon lies flat on the map, turning with the bearing.", \.flat, \.flat),
    numberField("rotation", "Degrees clockwise the icon is turned.", \.rotation, \.rotation),
    numberField("opacity", "0 (invisible, still tappable: R4) to 1.", \.opacity, \.opacity),
    MarkerField(
      name: "z_index", type: "integer", doc: "Higher draws on top and wins taps (R4).",
      get: { m, s in s.push(Int(m.zIndex)) },
      assign: { s, i, o throws(LuaFunctionError) in
        o.zIndex = try LuaValues.zIndex(at: i, on: s, field: "marker.z_index")
      }),
    boolField("tappable", "Whether taps can hit the marker (R4).", \.tappable, \.tappable),
    boolField(
      "tracks_view_changes", "Whether the icon view is redrawn when it changes.", \.tracksViewChanges,
      \.tracksViewChanges),
    boolField(
      "tracks_info_window_changes",
      "Whether an open default window shows title and snippet changes at once (R7); false: it keeps what it was shown with until shown again.",
      \.tracksInfoWindowChanges, \.tracksInfoWindowChanges),
  ]

  /// The slots of the fields with a ``didApply``, which `add_marker` calls once the marker
  /// exists.
  static let appliedAfterwards = all.indices.filter { all[$0].didApply != nil }

  /// The fields an options table sets, as `add_marker` found them.
  struct Present {
    /// Bit `slot` set when the table sets the field of that slot (``slots``).
    var mask: UInt64 = 0

    /// Whether the table sets the field of `slot`.
    func contains(_ slot: Int) -> Bool { mask & 1 << UInt64(slot) != 0 }
    /// Whether the table has a `user_data`.
    var hasUserData: Bool { contains(all.count) }
  }

  /// Calls the ``didApply`` of each field that the options table at `table` sets, with its
  /// value, once `marker` exists. Stack: 0.
  static func applyAfterwards(
    _ present: Present, ofTableAt table: Int32, to marker: Marker, _ bridge: LuaMapBridge, on stack: LuaStack
  ) {
    for slot in appliedAfterwards where present.contains(slot) {
      stack.withStackBalance {
        stack.rawGetField(all[slot].name, ofTableAt: table)
        all[slot].didApply?(bridge, stack, stack.top, marker)
      }
    }
  }

  /// Each field's place in ``all``, and `all.count` for `user_data`: the stack slot
  /// `add_marker` copies the field's value to (`LuaStack.gatherFields`).
  static let slots: [String: Int] = {
    precondition(all.count < 63, "gatherFields has a bit for each field and user_data")
    var slots = ["user_data": all.count]
    for (slot, field) in all.enumerated() { slots[field.name] = slot }
    return slots
  }()

  /// The slot of `position`, which `add_marker` reads first (it is required).
  static let positionSlot = slots["position"]!
  /// The slot of `id`, which is read-only once the marker exists and so has no `assign`.
  static let idSlot = slots["id"]!
  /// A bit for each field but `position` that `add_marker` reads through its `assign`.
  static let assignedSlots: UInt64 = all.enumerated().reduce(0) { mask, entry in
    entry.element.assign == nil || entry.offset == positionSlot ? mask : mask | 1 << UInt64(entry.offset)
  }

  // MARK: Field makers

  private static func stringField(
    _ name: String, _ doc: String, _ get: KeyPath<Marker, String?> & Sendable,
    _ set: WritableKeyPath<MarkerOptions, String?> & Sendable
  ) -> MarkerField {
    MarkerField(
      name: name, type: "string?", doc: doc, get: { m, s in LuaValues.push(m[keyPath: get], on: s) },
      assign: { [label = "marker.\(name)"] s, i, o throws(LuaFunctionError) in
        o[keyPath: set] = try LuaValues.optionalString(at: i, on: s, field: label)
      })
  }

  private static func boolField(
    _ name: String, _ doc: String, _ get: KeyPath<Marker, Bool> & Sendable,
    _ set: WritableKeyPath<MarkerOptions, Bool> & Sendable
  ) -> MarkerField {
    MarkerField(
      name: name, type: "boolean", doc: doc, get: { m, s in s.push(m[keyPath: get]) },
      assign: { [label = "marker.\(name)"] s, i, o throws(LuaFunctionError) in
        o[keyPath: set] = try LuaValues.boolean(at: i, on: s, field: label)
      })
  }

  private static func numberField(
    _ name: String, _ doc: String, _ get: KeyPath<Marker, Double> & Sendable,
    _ set: WritableKeyPath<MarkerOptions, Double> & Sendable
  ) -> MarkerField {
    MarkerField(
      name: name, type: "number", doc: doc, get: { m, s in s.push(m[keyPath: get]) },
      assign: { [label = "marker.\(name)"] s, i, o throws(LuaFunctionError) in
        o[keyPath: set] = try LuaValues.number(at: i, on: s, field: label)
      })
  }

  private static func pointField(
    _ name: String, _ doc: String, _ get: KeyPath<Marker, Point> & Sendable,
    _ set: WritableKeyPath<MarkerOptions, Point> & Sendable
  ) -> MarkerField {
    MarkerField(
      name: name, type: "Point", doc: doc, get: { m, s in LuaValues.push(m[keyPath: get], on: s) },
      assign: { [label = "marker.\(name)"] s, i, o throws(LuaFunctionError) in
        o[keyPath: set] = try LuaValues.point(at: i, on: s, field: label)
      })
  }

  // MARK: Icons

  private static func pushIcon(_ icon: MarkerIcon, insets: EdgeInsets, on stack: LuaStack) {
    switch icon {
    case .defaultPin: stack.pushNil()
    case .tintedPin(let color):
      stack.newTable()
      stack.push(color)
      stack.rawSetField("color", ofTableAt: -2)
    case .image(let name, let size):
      pushNamedSize(name, size, on: stack)
      guard insets != .zero else { return }
      stack.newTable()
      for (key, value) in [
        ("top", insets.top), ("left", insets.left), ("bottom", insets.bottom), ("right", insets.right),
      ] {
        stack.push(value)
        stack.rawSetField(key, ofTableAt: -2)
      }
      stack.rawSetField("insets", ofTableAt: -2)
    case .frames(let frames, let duration):
      stack.newTable()
      stack.newTable()
      for (index, frame) in frames.enumerated() {
        pushNamedSize(frame.name, frame.size, on: stack)
        stack.rawSetIndex(index + 1, ofTableAt: -2)
      }
      stack.rawSetField("frames", ofTableAt: -2)
      stack.push(duration)
      stack.rawSetField("duration", ofTableAt: -2)
    }
  }

  /// `{ image = name, width =, height = }`.
  private static func pushNamedSize(_ name: String, _ size: Size, on stack: LuaStack) {
    stack.newTable()
    stack.push(name)
    stack.rawSetField("image", ofTableAt: -2)
    stack.push(size.width)
    stack.rawSetField("width", ofTableAt: -2)
    stack.push(size.height)
    stack.rawSetField("height", ofTableAt: -2)
  }

  /// The icon at `index` and its insets (R37: only an image icon has them).
  private static func readIcon(at index: Int32, on stack: LuaStack) throws(LuaFunctionError)
    -> (MarkerIcon, EdgeInsets)
  {
    if LuaValues.isNil(index, on: stack) { return (.defaultPin, .zero) }
    guard stack.type(at: index) == .table else {
      throw LuaValues.typeError(
        "marker.icon", expected: "nil, { color = } or { image =, width =, height = }", at: index,
        on: stack)
    }
    let color = try LuaAPIShape.markerIcon.withField("color", ofTableAt: index, on: stack) {
      v throws(LuaFunctionError) -> String? in
      try LuaValues.optionalString(at: v, on: stack, field: "marker.icon.color")
    }
    if let color {
      try LuaValues.requireKnownFields(ofTableAt: index, on: stack, allowed: ["color"], what: "marker.icon")
      return (.tintedPin(color: color), .zero)
    }
    let insets = try LuaAPIShape.markerIcon.withField("insets", ofTableAt: index, on: stack) {
      v throws(LuaFunctionError) -> EdgeInsets in
      guard !LuaValues.isNil(v, on: stack) else { return .zero }
      guard stack.type(at: v) == .table else {
        throw LuaValues.typeError(
          "marker.icon.insets", expected: "{ top =, left =, bottom =, right = }", at: v, on: stack)
      }
      return try CameraUpdateReader.readInsets(at: v, on: stack, field: "marker.icon.insets", default: 0)
    }
    if let frames = try readFrames(at: index, on: stack) { return (frames, .zero) }
    let (name, size) = try readNamedSize(
      at: index, on: stack, shape: .markerIcon, nameKey: "image", field: "marker.icon", extra: ["insets"])
    return (.image(name: name, size: size), insets)
  }

  /// The icon view `{ name =, width =, height =, color = }` at `index`.
  private static func readIconView(at index: Int32, on stack: LuaStack) throws(LuaFunctionError) -> MarkerIconView {
    let (name, size) = try readNamedSize(
      at: index, on: stack, shape: .iconView, nameKey: "name", field: "marker.icon_view", extra: ["color"])
    let color = try LuaAPIShape.iconView.withField("color", ofTableAt: index, on: stack) {
      v throws(LuaFunctionError) in try LuaValues.optionalString(at: v, on: stack, field: "marker.icon_view.color")
    }
    return MarkerIconView(name: name, size: size, color: color)
  }

  /// `{ frames = { { image =, width =, height = }, ... }, duration = }` (R48), or nil when
  /// the table has no `frames`.
  private static func readFrames(at index: Int32, on stack: LuaStack) throws(LuaFunctionError) -> MarkerIcon? {
    let shape = LuaAPIShape.markerIcon
    let frames = try shape.withField("frames", ofTableAt: index, on: stack) {
      value throws(LuaFunctionError) -> [MarkerIconFrame]? in
      guard !LuaValues.isNil(value, on: stack) else { return nil }
      let list = stack.absoluteIndex(value)
      guard stack.type(at: list) == .table else {
        throw LuaValues.typeError(
          "marker.icon.frames", expected: "a list of { image =, width =, height = }", at: list, on: stack)
      }
      let count = stack.rawLength(at: list)
      try LuaValues.requireKnownFields(
        ofTableAt: list, on: stack, allowed: [], positions: count, what: "marker.icon.frames")
      var frames: [MarkerIconFrame] = []
      for position in 0..<count {
        _ = stack.rawGetIndex(position + 1, ofTableAt: list)
        defer { stack.pop() }
        let (name, size) = try readNamedSize(
          at: stack.absoluteIndex(-1), on: stack, shape: .markerIcon, nameKey: "image",
          field: "marker.icon.frames[\(position + 1)]")
        frames.append(MarkerIconFrame(name: name, size: size))
      }
      return frames
    }
    guard let frames else { return nil }
    try LuaValues.requireKnownFields(
      ofTableAt: index, on: stack, allowed: ["frames", "duration"], what: "marker.icon")
    let duration = try shape.withField("duration", ofTableAt: index, on: stack) {
      v throws(LuaFunctionError) in try LuaValues.number(at: v, on: stack, field: "marker.icon.duration")
    }
    return .frames(frames, duration: duration)
  }

  private static func readNamedSize(
    at index: Int32, on stack: LuaStack, shape: LuaAPIShape, nameKey: String, field: String, extra: [String] = []
  ) throws(LuaFunctionError) -> (String, Size) {
    guard stack.type(at: index) == .table else {
      throw LuaValues.typeError(
        field, expected: "{ \(nameKey) =, width =, height = }", at: index, on: stack)
    }
    try LuaValues.requireKnownFields(
      ofTableAt: index, on: stack, allowed: [nameKey, "width", "height"] + extra, what: field)
    let name = try shape.withField(nameKey, ofTableAt: index, on: stack) {
      v throws(LuaFunctionError) in try LuaValues.string(at: v, on: stack, field: "\(field).\(nameKey)")
    }
    let width = try shape.withField("width", ofTableAt: index, on: stack) {
      v throws(LuaFunctionError) in try LuaValues.number(at: v, on: stack, field: "\(field).width")
    }
    let height = try shape.withField("height", ofTableAt: index, on: stack) {
      v throws(LuaFunctionError) in try LuaValues.number(at: v, on: stack, field: "\(field).height")
    }
    return (name, Size(width: width, height: height))
  }
}
