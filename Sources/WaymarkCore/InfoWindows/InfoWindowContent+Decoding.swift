/// Decoding of info-window content from a ``ContentValue`` tree.
///
/// The format (also in `docs/info-window-content.md`):
///
/// - a string is a text node in body style: `"Melbourne"`;
/// - a list of nodes is a vertical stack, top to bottom, no spacing;
/// - a table is a node with exactly one of these keys, and that kind's options:
///   - `text = "..."`: `style = "title" | "body" | "caption"` (body),
///     `color = "#RRGGBB"`, `max_lines = 2` (no limit),
///     `align = "leading" | "center" | "trailing"` (leading);
///   - `image = "name"`: `width = 40, height = 40`, both required, in points;
///   - `vstack = { nodes }`: `spacing = 4` (0),
///     `align = "leading" | "center" | "trailing"` (leading);
///   - `hstack = { nodes }`: `spacing = 4` (0), `align = "top" | "center" | "bottom"` (top);
/// - and any node may add a box around itself: `padding = 8` or
///   `padding = { top =, left =, bottom =, right = }` (missing edges 0),
///   `background = "#ffffff"`, `corner_radius = 6`, `min_width = 100`, `max_width = 200`.
///
/// Colours are `"#RRGGBB"`, `"#RRGGBBAA"` or a name of ``ContentColor/namedColors``.
/// Sizes are finite, non-negative numbers of points, at most
/// ``ContentLimits/maxDimension``. A field set to nil counts as absent. An empty
/// table is an empty vertical stack, except at the root, where it is an error:
/// return nil for "no custom window".
extension InfoWindowContent {
  /// Decodes content from a value tree, checking every field and the limits.
  ///
  /// - Throws: a ``ContentError`` naming the path and the value at fault, e.g.
  ///   `content[2].width: -3 is negative`, for the first problem in document order, with
  ///   every other problem in ``ContentError/others``.
  package init(decoding value: ContentValue, limits: ContentLimits = .standard) throws(ContentError) {
    var decoder = ContentDecoder(limits: limits)
    let root = decoder.root(value)
    guard var first = decoder.problems.first else {
      self.init(root)
      return
    }
    first.others = Array(decoder.problems.dropFirst())
    throw first
  }

  /// Every problem of a content value, in document order (empty when it is valid).
  package static func problems(in value: ContentValue, limits: ContentLimits = .standard) -> [ContentError] {
    var decoder = ContentDecoder(limits: limits)
    _ = decoder.root(value)
    return decoder.problems
  }
}

/// The recursive decoder behind ``InfoWindowContent/init(decoding:limits:)``.
struct ContentDecoder {
  let limits: ContentLimits
  private var nodeCount = 0
  /// What is wrong, in document order: a field's problem is noted and decoding goes on with
  /// the next field, so every problem is reported at once.
  private(set) var problems: [ContentError] = []
  /// Bytes of text decoded so far.
  var textBytes = 0

  init(limits: ContentLimits) {
    self.limits = limits
  }

  static let nodeKeys = ["text", "image", "vstack", "hstack"]
  static let textKeys = ["text", "style", "color", "max_lines", "align"]
  static let imageKeys = ["image", "width", "height"]
  static let stackKeys = ["spacing", "align"]
  static let boxKeys = ["padding", "background", "corner_radius", "min_width", "max_width"]
  static let edgeKeys = ["top", "left", "bottom", "right"]

  /// Every key of any kind, for suggestions when the kind is unknown.
  static let allKeys: [String] = {
    var keys: [String] = []
    for key in nodeKeys + textKeys + imageKeys + stackKeys + boxKeys where !keys.contains(key) {
      keys.append(key)
    }
    return keys
  }()

  /// Decodes the whole content, noting every problem (the limits stop it at once).
  mutating func root(_ value: ContentValue) -> ContentNode {
    if value.isEmptyContainer {
      problems.append(
        ContentError(path: "content", message: "an empty table shows nothing; return nil for no window"))
      return .stack(StackNode(.vertical, []))
    }
    do {
      return try node(value, path: "content", depth: 1)
    } catch {
      problems.append(error)
      return .stack(StackNode(.vertical, []))
    }
  }

  /// Runs `body`, noting the problem it throws and answering `fallback` instead.
  mutating func noting<T>(_ fallback: T, _ body: (inout ContentDecoder) throws(ContentError) -> T) -> T {
    do {
      return try body(&self)
    } catch {
      problems.append(error)
      return fallback
    }
  }

  /// Decodes one node at `path`, `depth` levels deep (the root is 1). Throws only when a
  /// limit is passed; other problems are noted in ``problems``.
  mutating func node(_ value: ContentValue, path: String, depth: Int) throws(ContentError)
    -> ContentNode
  {
    guard depth <= limits.maxDepth else {
      throw ContentError(path: path, message: "nodes nested deeper than \(limits.maxDepth) levels")
    }
    nodeCount += 1
    guard nodeCount <= limits.maxNodes else {
      throw ContentError(path: path, message: "more than \(limits.maxNodes) nodes")
    }
    switch value {
    case .unknown:
      nodeCount -= 1
      return .stack(StackNode(.vertical, []))
    case .string(let text):
      return .text(TextNode(noting(text) { decoder throws(ContentError) in try decoder.checkedText(text, path: path) }))
    case .list(let items):
      return .stack(StackNode(.vertical, try children(items, path: path, depth: depth)))
    case .table(let fields) where fields.isEmpty:
      return .stack(StackNode(.vertical, []))
    case .table(let fields):
      return try tableNode(fields, path: path, depth: depth)
    default:
      problems.append(
        ContentError(
          path: path, message: "\(value.errorDescription) is not a node (a string, a list or a table)"))
      return .stack(StackNode(.vertical, []))
    }
  }

  private mutating func children(_ items: [ContentValue], path: String, depth: Int)
    throws(ContentError) -> [ContentNode]
  {
    var nodes: [ContentNode] = []
    nodes.reserveCapacity(min(items.count, limits.maxNodes))
    for (index, item) in items.enumerated() {
      nodes.append(try node(item, path: "\(path)[\(index + 1)]", depth: depth + 1))
    }
    return nodes
  }

  private mutating func tableNode(
    _ allFields: [(key: String, value: ContentValue)], path: String, depth: Int
  ) throws(ContentError) -> ContentNode {
    var seen: Set<String> = []
    var fields: [(key: String, value: ContentValue)] = []
    for field in allFields {
      guard seen.insert(field.key).inserted else {
        problems.append(ContentError(path: "\(path).\(field.key)", message: "duplicate field"))
        continue
      }
      if case .nil = field.value { continue }
      fields.append(field)
    }
    let kinds = fields.map(\.key).filter { Self.nodeKeys.contains($0) }
    guard let kind = kinds.first else {
      let unknown = fields.filter { !Self.allKeys.contains($0.key) }
      let guesses = unknown.compactMap { field in
        Suggestion.closest(to: field.key, among: Self.allKeys).map { (field.key, $0) }
      }
      for (key, _) in guesses {
        problems.append(
          ContentError(
            path: "\(path).\(key)", message: "unknown field" + Suggestion.hint(for: key, among: Self.allKeys)))
      }
      if guesses.isEmpty || !guesses.contains(where: { Self.nodeKeys.contains($0.1) }) {
        problems.append(ContentError(path: path, message: "a node needs one of text, image, vstack, hstack"))
      }
      return .stack(StackNode(.vertical, []))
    }
    guard kinds.count == 1 else {
      problems.append(
        ContentError(
          path: path,
          message: "a node takes only one of text, image, vstack, hstack; found \(kinds[0]) and \(kinds[1])"))
      return .stack(StackNode(.vertical, []))
    }
    let allowed: [String]
    switch kind {
    case "text": allowed = Self.textKeys + Self.boxKeys
    case "image": allowed = Self.imageKeys + Self.boxKeys
    default: allowed = [kind] + Self.stackKeys + Self.boxKeys
    }
    for field in fields where !allowed.contains(field.key) {
      let fieldPath = "\(path).\(field.key)"
      if Self.allKeys.contains(field.key) {
        problems.append(ContentError(path: fieldPath, message: "not a field of \(kind) nodes"))
      } else {
        problems.append(
          ContentError(path: fieldPath, message: "unknown field" + Suggestion.hint(for: field.key, among: allowed)))
      }
    }
    fields = fields.filter { allowed.contains($0.key) }
    let decoded: ContentNode
    switch kind {
    case "text": decoded = textNode(fields, path: path)
    case "image": decoded = imageNode(fields, path: path)
    default: decoded = try stackNode(kind, fields, path: path, depth: depth)
    }
    return boxed(decoded, fields, path: path)
  }
}
