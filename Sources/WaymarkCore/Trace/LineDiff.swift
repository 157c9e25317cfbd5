/// The one diff of Waymark: which lines changed between two texts. `waymark run --watch`
/// shows a rerun's changes with it, `waymark test --golden` aligns a trace with its golden
/// trace with it (through ``TraceDiff``), and embedders use it for the same.
///
/// ```swift
/// let changes = LineDiff.changes(from: ["a", "b", "c"], to: ["a", "x", "c"])
/// LineDiff.render(changes)   // ["  a", "- b", "+ x", "  c"]
/// ```
package enum LineDiff {
  /// One line of a diff.
  package enum Change: Hashable, Sendable {
    /// In both.
    case same(String)
    /// Only in the old text.
    case removed(String)
    /// Only in the new text.
    case added(String)

    /// Whether the line is in only one of the texts.
    package var isChange: Bool {
      if case .same = self { return false }
      return true
    }
  }

  /// The changes from `old` to `new`: common prefix and suffix kept as they are, the middle
  /// aligned by a longest common subsequence (or, past `limit` lines, all removed then added).
  package static func changes(from old: [String], to new: [String], limit: Int = 3000) -> [Change] {
    var prefix = 0
    while prefix < old.count, prefix < new.count, old[prefix] == new[prefix] { prefix += 1 }
    var suffix = 0
    while suffix < old.count - prefix, suffix < new.count - prefix,
      old[old.count - 1 - suffix] == new[new.count - 1 - suffix]
    {
      suffix += 1
    }
    let a = Array(old[prefix..<(old.count - suffix)]), b = Array(new[prefix..<(new.count - suffix)])
    var middle: [Change]
    if a.count > limit || b.count > limit {
      middle = a.map(Change.removed) + b.map(Change.added)
    } else {
      middle = align(a, b)
    }
    return old[..<prefix].map(Change.same) + middle + old[(old.count - suffix)...].map(Change.same)
  }

  private static func align(_ a: [String], _ b: [String]) -> [Change] {
    // lengths[i][j]: the longest common subsequence of a[i...] and b[j...].
    var lengths = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in stride(from: a.count - 1, through: 0, by: -1) {
      for j in stride(from: b.count - 1, through: 0, by: -1) {
        lengths[i][j] = a[i] == b[j] ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
      }
    }
    var changes: [Change] = []
    var i = 0, j = 0
    while i < a.count || j < b.count {
      if i < a.count, j < b.count, a[i] == b[j] {
        changes.append(.same(a[i]))
        i += 1
        j += 1
      } else if i < a.count, j == b.count || lengths[i + 1][j] >= lengths[i][j + 1] {
        changes.append(.removed(a[i]))
        i += 1
      } else {
        changes.append(.added(b[j]))
        j += 1
      }
    }
    return changes
  }

  /// The changes as text: changed lines with `-` or `+`, and `context` unchanged lines
  /// around each change; runs of unchanged lines in between are elided (`  …`).
  package static func render(_ changes: [Change], context: Int = 1) -> [String] {
    let changed = changes.indices.filter { changes[$0].isChange }
    var keep = Set<Int>()
    for index in changed {
      for near in max(0, index - context)...min(changes.count - 1, index + context) { keep.insert(near) }
    }
    var lines: [String] = []
    var previous = -1
    for index in keep.sorted() {
      if previous >= 0, index > previous + 1 { lines.append("  …") }
      previous = index
      switch changes[index] {
      case .same(let line): lines.append("  " + line)
      case .removed(let line): lines.append("- " + line)
      case .added(let line): lines.append("+ " + line)
      }
    }
    return lines
  }
}
