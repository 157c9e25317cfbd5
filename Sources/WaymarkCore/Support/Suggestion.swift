/// Finds the known name a misspelt one was probably meant to be, for "did you mean ...?"
/// messages: content keys, handler names, command-line options.
package enum Suggestion {
  /// The candidate `key` was most probably meant to be, if any, weighing both kinds of
  /// mistake people make with names:
  ///
  /// 1. a typo: one edit (a swap of two neighbours counts as one) wins at once;
  /// 2. a wrong word: the candidate made of some of the key's `_`-separated words, or whose
  ///    words include all of the key's (`animate_camera` → `animate`, not `animate_marker`),
  ///    when exactly one candidate shares the most words;
  /// 3. an abbreviation, when only one candidate is one (`latitude` → `lat`);
  /// 4. a bigger typo: the fewest edits, at most a quarter of the key's length (so `title`
  ///    never becomes `tilt`) and at most half the candidate's.
  ///
  /// Ties go to the earlier candidate. Keys longer than 64 characters get no suggestion
  /// (the comparison is quadratic).
  package static func closest(to key: String, among candidates: some Sequence<String>) -> String? {
    guard key.count <= 64 else { return nil }
    let key = key.lowercased()
    let candidates = Array(candidates).filter { $0 != key }
    var best: (candidate: String, distance: Int)?
    for candidate in candidates {
      let distance = editDistance(Array(key), Array(candidate))
      if best == nil || distance < best!.distance { best = (candidate, distance) }
    }
    if let best, best.distance <= 1 { return best.candidate }
    if let byWords = sharingWords(key, candidates) { return byWords }
    // An abbreviation: `lat` for `latitude`, `lng` for `longitude`.
    let abbreviations = candidates.filter { isAbbreviation($0, of: key) }
    if abbreviations.count == 1 { return abbreviations[0] }
    guard let best, best.distance <= max(1, key.count / 4), best.distance * 2 <= best.candidate.count else {
      return nil
    }
    return best.candidate
  }

  /// Whether `short` (3 letters or more) is `long`'s first letter then more of its letters in
  /// order, at most half as long: `lng` of `longitude`.
  private static func isAbbreviation(_ short: String, of long: String) -> Bool {
    guard short.count >= 3, short.count * 2 <= long.count, short.first == long.first else { return false }
    var letters = long.makeIterator()
    return short.allSatisfy { letter in
      while let next = letters.next() { if next == letter { return true } }
      return false
    }
  }

  /// The one candidate whose words are a part of the key's, or the key's a part of its, with
  /// the most words in common (one that the key starts with, or that starts with the key,
  /// first); nil when none or several are as good.
  private static func sharingWords(_ key: String, _ candidates: [String]) -> String? {
    let keyWords = Set(key.split(separator: "_"))
    var best: (candidate: String, score: (Int, Int), unique: Bool)?
    for candidate in candidates {
      let words = Set(candidate.split(separator: "_"))
      // The candidate is a part of the key, or the key a part of it with one word more at most.
      guard words.isSubset(of: keyWords) || (keyWords.isSubset(of: words) && words.count <= keyWords.count + 1)
      else { continue }
      let shared = words.intersection(keyWords)
      guard shared.contains(where: { $0.count > 2 }) else { continue }
      let prefix = key.hasPrefix(candidate + "_") || candidate.hasPrefix(key + "_")
      let score = (shared.count, prefix ? 1 : 0)
      if best == nil || score > best!.score {
        best = (candidate, score, true)
      } else if score == best!.score {
        best!.unique = false
      }
    }
    guard let best, best.unique else { return nil }
    return best.candidate
  }

  /// `"; did you mean x?"` (the candidate as `spelled` writes it: `--x`, `'x'`), or
  /// `otherwise` when nothing is close: the one way every message suggests a name.
  package static func hint(
    for key: String, among candidates: some Sequence<String>, spelled: (String) -> String = { $0 },
    otherwise: String = ""
  ) -> String {
    closest(to: key, among: candidates).map { "; did you mean \(spelled($0))?" } ?? otherwise
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
