/// The serials behind a map's generated ids (`marker-N`, `overlay-N`): 1, 2, 3... in order
/// of creation, except that a serial whose generated id an object on the map already has
/// (given explicitly, or brought from another map) is skipped, so that a generated id never
/// repeats one on the map.
struct GeneratedSerials {
  /// What the generated ids start with (`marker-`).
  let prefix: String
  /// The serial the next created object gets; never a skipped one.
  private(set) var next = 1
  /// Serials from ``next`` on whose generated ids are taken, skipped when reached.
  private var taken: Set<Int> = []

  /// The first byte of ``prefix``.
  private let firstByte: UInt8?

  /// Serials for ids that start with `prefix`.
  init(prefix: String) {
    self.prefix = prefix
    firstByte = prefix.utf8.first
  }

  /// Takes the next serial; returns it and how many serials after it were skipped.
  mutating func take() -> (serial: Int, skipped: Int) {
    let serial = next
    next += 1
    return (serial, skipTaken())
  }

  /// Notes `id`, now on the map: when it is the generated id of ``next`` or a later serial,
  /// that serial is skipped when reached. Returns how many serials were skipped now.
  mutating func note(_ id: String) -> Int {
    // Most ids differ from the prefix at once: their first byte says so without a comparison
    // of strings (which an id in every feature of a bulk add would pay).
    guard id.utf8.first == firstByte, id.hasPrefix(prefix), let serial = Int(id.dropFirst(prefix.count)),
      serial >= next, id == "\(prefix)\(serial)"  // `marker-07` is not `marker-7`
    else { return 0 }
    taken.insert(serial)
    return skipTaken()
  }

  /// Moves ``next`` past the taken serials it meets; returns how many.
  private mutating func skipTaken() -> Int {
    guard !taken.isEmpty else { return 0 }
    var skipped = 0
    while taken.remove(next) != nil {
      next += 1
      skipped += 1
    }
    return skipped
  }
}
