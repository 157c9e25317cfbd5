/// The decoding of each node kind's fields and of field values (numbers,
/// colours, enumerations), each error naming its path and value.
extension ContentDecoder {
  mutating func textNode(_ fields: [(key: String, value: ContentValue)], path: String) -> ContentNode {
    var node = TextNode("")
    for (key, value) in fields {
      let fieldPath = "\(path).\(key)"
      noting(()) { decoder throws(ContentError) in
        switch key {
        case "text": node.text = try decoder.checkedText(decoder.string(value, path: fieldPath), path: fieldPath)
        case "style": node.style = try decoder.choice(value, path: fieldPath)
        case "color": node.color = try decoder.color(value, path: fieldPath)
        case "max_lines": node.maxLines = try decoder.positiveInteger(value, path: fieldPath)
        case "align": node.alignment = try decoder.choice(value, path: fieldPath)
        default: break
        }
      }
    }
    return .text(node)
  }

  mutating func imageNode(_ fields: [(key: String, value: ContentValue)], path: String) -> ContentNode {
    var name = ""
    var width: Double?
    var height: Double?
    for (key, value) in fields {
      let fieldPath = "\(path).\(key)"
      noting(()) { decoder throws(ContentError) in
        switch key {
        case "image":
          name = try decoder.string(value, path: fieldPath)
          if name.isEmpty, value != .unknown {
            throw ContentError(path: fieldPath, message: "\"\" is not an image name")
          }
        case "width": width = try decoder.dimension(value, path: fieldPath)
        case "height": height = try decoder.dimension(value, path: fieldPath)
        default: break
        }
      }
    }
    let present = Set(fields.map(\.key))
    if !present.contains("width") || !present.contains("height") {
      noting(()) { _ throws(ContentError) in
        throw ContentError(path: path, message: "an image needs width and height")
      }
    }
    return .image(ImageNode(name: name, width: width ?? 0, height: height ?? 0))
  }

  mutating func stackNode(
    _ kind: String, _ fields: [(key: String, value: ContentValue)], path: String, depth: Int
  ) throws(ContentError) -> ContentNode {
    let axis: StackAxis = kind == "vstack" ? .vertical : .horizontal
    var stack = StackNode(axis, [])
    for (key, value) in fields {
      let fieldPath = "\(path).\(key)"
      switch key {
      case "vstack", "hstack":
        switch value {
        case .list(let items):
          for (index, item) in items.enumerated() {
            stack.children.append(
              try node(item, path: "\(fieldPath)[\(index + 1)]", depth: depth + 1))
          }
        case .table(let entries) where entries.isEmpty: break
        case .unknown: break
        default:
          noting(()) { _ throws(ContentError) in
            throw ContentError(path: fieldPath, message: "\(value.errorDescription) is not a list of nodes")
          }
        }
      case "spacing":
        stack.spacing = noting(0) { decoder throws(ContentError) in try decoder.dimension(value, path: fieldPath) }
      case "align":
        if axis == .vertical {
          let alignment: HorizontalAlignment = noting(.leading) { decoder throws(ContentError) in
            try decoder.choice(value, path: fieldPath)
          }
          stack.alignment = alignment == .leading ? .start : alignment == .center ? .center : .end
        } else {
          let alignment: VerticalAlignment = noting(.top) { decoder throws(ContentError) in
            try decoder.choice(value, path: fieldPath)
          }
          stack.alignment = alignment == .top ? .start : alignment == .center ? .center : .end
        }
      default: break
      }
    }
    return .stack(stack)
  }

  /// Wraps `node` in a box when any box field is present.
  mutating func boxed(
    _ node: ContentNode, _ fields: [(key: String, value: ContentValue)], path: String
  ) -> ContentNode {
    var box = BoxNode(node)
    var isBoxed = false
    for (key, value) in fields {
      let fieldPath = "\(path).\(key)"
      guard ContentDecoder.boxKeys.contains(key) else { continue }
      noting(()) { decoder throws(ContentError) in
        switch key {
        case "padding": box.padding = try decoder.insets(value, path: fieldPath)
        case "background": box.background = try decoder.color(value, path: fieldPath)
        case "corner_radius": box.cornerRadius = try decoder.dimension(value, path: fieldPath)
        case "min_width": box.minWidth = try decoder.dimension(value, path: fieldPath)
        default: box.maxWidth = try decoder.dimension(value, path: fieldPath)
        }
      }
      isBoxed = true
    }
    return isBoxed ? .box(box) : node
  }

  // MARK: - Values

  mutating func checkedText(_ text: String, path: String) throws(ContentError) -> String {
    let bytes = text.utf8.count
    guard bytes <= limits.maxTextBytes else {
      throw ContentError(
        path: path,
        message: "\(ContentValue.string(text).errorDescription) has \(bytes) bytes, more than \(limits.maxTextBytes)")
    }
    textBytes += bytes
    guard textBytes <= limits.maxTotalTextBytes else {
      throw ContentError(
        path: path, message: "the content's texts have more than \(limits.maxTotalTextBytes) bytes in all")
    }
    return text
  }

  func string(_ value: ContentValue, path: String) throws(ContentError) -> String {
    if value == .unknown { return "" }
    guard case .string(let text) = value else {
      throw ContentError(path: path, message: "\(value.errorDescription) is not a string")
    }
    return text
  }

  /// A finite, non-negative number of points, at most `limits.maxDimension`.
  func dimension(_ value: ContentValue, path: String) throws(ContentError) -> Double {
    if value == .unknown { return 0 }
    guard let number = value.numericValue else {
      throw ContentError(path: path, message: "\(value.errorDescription) is not a number")
    }
    let shown = value.errorDescription
    guard number.isFinite else {
      throw ContentError(path: path, message: "\(shown) is not a finite number")
    }
    guard number >= 0 else { throw ContentError(path: path, message: "\(shown) is negative") }
    guard number <= limits.maxDimension else {
      throw ContentError(
        path: path,
        message: "\(shown) is more than \(ContentValue.format(limits.maxDimension))")
    }
    return number
  }

  func positiveInteger(_ value: ContentValue, path: String) throws(ContentError) -> Int {
    if value == .unknown { return 1 }
    guard let number = value.numericValue else {
      throw ContentError(path: path, message: "\(value.errorDescription) is not a number")
    }
    guard let whole = ContentValue.wholeNumber(number), whole >= 1 else {
      throw ContentError(
        path: path, message: "\(value.errorDescription) is not a whole number of at least 1")
    }
    return whole
  }

  func choice<Choice: RawRepresentable & CaseIterable>(_ value: ContentValue, path: String)
    throws(ContentError) -> Choice where Choice.RawValue == String
  {
    if case .string(let text) = value, let choice = Choice(rawValue: text) { return choice }
    if value == .unknown, let first = Choice.allCases.first { return first }
    let names = Choice.allCases.map(\.rawValue).joined(separator: ", ")
    throw ContentError(path: path, message: "\(value.errorDescription) is not one of \(names)")
  }

  func color(_ value: ContentValue, path: String) throws(ContentError) -> ContentColor {
    if case .string(let text) = value, let color = ContentColor(parsing: text) { return color }
    if value == .unknown, let color = ContentColor(parsing: "#000000") { return color }
    let names = ContentColor.namedColors.map(\.name).joined(separator: ", ")
    throw ContentError(
      path: path,
      message:
        "\(value.errorDescription) is not a colour: \"#RRGGBB\", \"#RRGGBBAA\" or one of \(names)")
  }

  func insets(_ value: ContentValue, path: String) throws(ContentError) -> EdgeInsets {
    switch value {
    case .unknown: return .zero
    case .number, .integer:
      return EdgeInsets(all: try dimension(value, path: path))
    case .table(let fields):
      var insets = EdgeInsets.zero
      for (key, edgeValue) in fields {
        let edgePath = "\(path).\(key)"
        if case .nil = edgeValue { continue }
        switch key {
        case "top": insets.top = try dimension(edgeValue, path: edgePath)
        case "left": insets.left = try dimension(edgeValue, path: edgePath)
        case "bottom": insets.bottom = try dimension(edgeValue, path: edgePath)
        case "right": insets.right = try dimension(edgeValue, path: edgePath)
        default:
          throw ContentError(
            path: edgePath, message: "unknown field" + Suggestion.hint(for: key, among: ContentDecoder.edgeKeys))
        }
      }
      return insets
    case .list(let items) where items.isEmpty:
      return .zero
    default:
      throw ContentError(
        path: path,
        message: "\(value.errorDescription) is not a number or a table of top, left, bottom, right")
    }
  }
}
