/// Why a value tree is not valid info-window content, and where.
///
/// `description` reads `path: message`, e.g.
/// `content[2].width: -3 is negative` or
/// `content[1].styel: unknown field; did you mean style?`. The path starts at
/// `content`, names table fields with `.name` and list elements with 1-based
/// `[i]`, as a Lua author would index them.
package struct ContentError: Error, Sendable, Equatable, CustomStringConvertible {
  /// Where the offending value is, e.g. `content[1].vstack[2].style`.
  package let path: String
  /// What is wrong with it, naming the value, e.g. `"huge" is not one of title, body, caption`.
  package let message: String
  /// The other problems of the same content, in document order (decoding reports every
  /// problem, not only the first).
  package var others: [ContentError] = []

  /// Creates an error at `path` with `message`.
  package init(path: String, message: String) {
    self.path = path
    self.message = message
  }

  /// `path: message`, then each other problem the same way, separated by `; `.
  package var description: String {
    ([self.path + ": " + message] + others.map(\.description)).joined(separator: "; ")
  }

  /// This problem and the others, each alone.
  package var all: [ContentError] {
    [ContentError(path: path, message: message)] + others
  }
}

/// Bounds that keep a hostile or buggy plugin from exhausting the stack, memory or
/// layout time with its info-window content.
package struct ContentLimits: Sendable, Equatable {
  /// The deepest nesting of nodes accepted; the root node is at depth 1.
  package var maxDepth: Int
  /// The most nodes (text, image and stack nodes) accepted in one content tree.
  package var maxNodes: Int
  /// The most bytes (UTF-8) of one text node. Bytes, not characters: what layout costs
  /// grows with bytes (a single character may carry thousands of combining marks).
  package var maxTextBytes: Int
  /// The most bytes of text in all the text nodes of one content tree.
  package var maxTotalTextBytes: Int
  /// The largest size, spacing, padding or corner radius accepted, in points.
  package var maxDimension: Double

  /// Creates limits; the defaults are those of ``standard``.
  package init(
    maxDepth: Int = 32, maxNodes: Int = 1_000, maxTextBytes: Int = 16 << 10, maxTotalTextBytes: Int = 64 << 10,
    maxDimension: Double = 10_000
  ) {
    self.maxDepth = maxDepth
    self.maxNodes = maxNodes
    self.maxTextBytes = maxTextBytes
    self.maxTotalTextBytes = maxTotalTextBytes
    self.maxDimension = maxDimension
  }

  /// Depth 32, 1,000 nodes, 16 KiB per text and 64 KiB in all, 10,000 points.
  package static let standard = ContentLimits()
}
