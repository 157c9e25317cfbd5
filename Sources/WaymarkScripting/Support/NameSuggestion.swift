/// "Did you mean ...?" for misspelt names: the closest candidate by edit distance.
enum NameSuggestion {
  /// The candidate closest to `name`, if it is close enough to be a likely typo: at most
  /// 2 edits for short names, about a third of the length for longer ones.
  static func closest(to name: String, among candidates: some Sequence<String>) -> String? {
    let limit = max(2, name.count / 3)
    var best: (name: String, distance: Int)?
    for candidate in candidates {
      let distance = editDistance(name, candidate)
      if distance <= limit, distance < best?.distance ?? .max { best = (candidate, distance) }
    }
    return best?.name
  }

  /// `"; did you mean x?"` or an empty string.
  static func hint(for name: String, among candidates: some Sequence<String>) -> String {
    closest(to: name, among: candidates).map { "; did you mean \($0)?" } ?? ""
  }

  /// Levenshtein distance over Unicode scalars (insertions, deletions, substitutions).
  static func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a.unicodeScalars), b = Array(b.unicodeScalars)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
        current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
      }
      swap(&previous, &current)
    }
    return previous[b.count]
  }
}
