/// Finds the known name a misspelt one was probably meant to be, for "did you mean ...?"
/// messages: content keys, handler names, command-line options.
package enum Suggestion {
  /// The candidate closest to `key` by edit distance (a swap of two neighbours
  /// counts as one edit), if it is a likely typo: at most 2 edits, or a third of the
  /// key's length for long keys, and at most half the candidate's length; ties go to
  /// the earlier candidate. Keys longer than 64 characters get no suggestion (the
  /// comparison is quadratic).
  package static func closest(to key: String, among candidates: some Sequence<String>) -> String? {
    guard key.count <= 64 else { return nil }
    let limit = max(2, key.count / 3)
    var best: (candidate: String, distance: Int)?
    for candidate in candidates {
      let distance = editDistance(Array(key.lowercased()), Array(candidate))
      guard distance <= limit, distance * 2 <= candidate.count else { continue }
      if best == nil || distance < best!.distance { best = (candidate, distance) }
    }
    return best?.candidate
  }

  /// `"; did you mean x?"`, or an empty string when nothing is close.
  package static func hint(for key: String, among candidates: some Sequence<String>) -> String {
    closest(to: key, among: candidates).map { "; did you mean \($0)?" } ?? ""
  }

  /// Optimal string alignment distance: insertions, deletions, substitutions and
  /// transpositions of adjacent characters each cost one.
  static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var table = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in 0...a.count { table[i][0] = i }
    for j in 0...b.count { table[0][j] = j }
    for i in 1...a.count {
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        var value = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          value = min(value, table[i - 2][j - 2] + 1)
        }
        table[i][j] = value
      }
    }
    return table[a.count][b.count]
  }
}
