import Testing

@testable import WaymarkCore
import WaymarkTesting

/// SplitMix64: a tiny seeded generator, so every failure replays exactly.
private struct IndexRNG {
  var state: UInt64

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// Uniform in [0, 1).
  mutating func unit() -> Double {
    Double(next() >> 11) * 0x1p-53
  }

  mutating func double(_ low: Double, _ high: Double) -> Double {
    low + (high - low) * unit()
  }

  mutating func int(_ bound: Int) -> Int {
    Int(next() % UInt64(bound))
  }
}

/// floor without libm, which the test binary does not link.
private func floorOf(_ v: Double) -> Double {
  if v.magnitude >= 0x1p52 { return v }
  let t = Double(Int64(v))
  return t > v ? t - 1 : t
}

/// The reference: every point in a dictionary, every query a full scan, with
/// the wrapping rules written out as documented on `SpatialIndex.forEach`, on
/// the exact points (the index answers by cells of 2^-32: see `cell`).
private struct BruteForce {
  var points: [Int32: (x: Double, y: Double)] = [:]

  mutating func set(_ id: Int32, x: Double, y: Double) {
    var wrapped = x - floorOf(x)
    if wrapped >= 1 { wrapped = 0 }
    points[id] = (wrapped, min(max(y, 0), 1))
  }

  func query(minX: Double, minY: Double, maxX: Double, maxY: Double) -> [Int32] {
    guard minX <= maxX, minY <= maxY else { return [] }
    let k = floorOf(minX)
    let a = minX - k
    let b = maxX - k
    return points.compactMap { id, p in
      guard p.y >= minY && p.y <= maxY else { return nil }
      let inX = b - a >= 1 || (p.x >= a && p.x <= b) || p.x <= b - 1
      return inX ? id : nil
    }.sorted()
  }
}

/// The side of the cells the index keeps points to, in world units.
private let cell = 0x1p-32

private func ids(
  _ index: inout SpatialIndex, minX: Double, minY: Double, maxX: Double, maxY: Double
) -> [Int32] {
  var found: [Int32] = []
  index.forEach(inMinX: minX, minY: minY, maxX: maxX, maxY: maxY) { found.append($0) }
  return found.sorted()
}

@Suite struct SpatialIndexTests {
  @Test(arguments: [1 as UInt64, 2, 3, 42])
  func randomOperationsMatchBruteForce(seed: UInt64) {
    var rng = IndexRNG(state: seed)
    var index = SpatialIndex()
    var reference = BruteForce()
    let idSpace = 3000
    // A few hot spots make deep leaves; one exact spot overflows the deepest level.
    let hotSpots = (0..<4).map { _ in (x: rng.unit(), y: rng.unit()) }
    let duplicate = (x: 0.3, y: 0.7)

    func randomPoint() -> (x: Double, y: Double) {
      switch rng.int(10) {
      case 0...3: return (rng.unit(), rng.unit())
      case 4...6:
        let spot = hotSpots[rng.int(hotSpots.count)]
        return (spot.x + rng.double(-1e-4, 1e-4), spot.y + rng.double(-1e-4, 1e-4))
      case 7: return duplicate
      case 8: return (rng.double(-0.05, 0.05), rng.unit())  // across x = 0
      default: return (rng.double(-2, 3), rng.double(-0.1, 1.1))  // needs wrap / clamp
      }
    }

    func checkQueries() {
      for _ in 0..<8 {
        let minX: Double
        let width: Double
        let minY: Double
        let height: Double
        switch rng.int(7) {
        case 0:  // tap-sized
          width = rng.double(0, 1e-3)
          height = width
          minX = rng.double(-0.01, 1.0)
          minY = rng.double(0, 1)
        case 1:  // around a hot spot
          let spot = hotSpots[rng.int(hotSpots.count)]
          width = rng.double(0, 2e-4)
          height = rng.double(0, 2e-4)
          minX = spot.x - rng.double(0, 2e-4)
          minY = spot.y - rng.double(0, 2e-4)
        case 2:  // crossing x = 0 / x = 1
          width = rng.double(0, 0.2)
          height = rng.double(0, 0.5)
          minX = rng.double(-0.2, 0) + (rng.int(2) == 0 ? 0 : 1)
          minY = rng.double(-0.1, 1)
        case 3:  // the whole world and more
          width = rng.double(1, 3)
          height = 2
          minX = rng.double(-2, 1)
          minY = -0.5
        case 4:  // several worlds away
          width = rng.double(0, 0.5)
          height = rng.double(0, 0.5)
          minX = rng.double(-5, 5)
          minY = rng.double(0, 1)
        case 5:  // exactly the duplicate spot
          width = 0
          height = 0
          minX = duplicate.x
          minY = duplicate.y
        default:  // anything
          width = rng.double(0, 1)
          height = rng.double(0, 1)
          minX = rng.double(-1, 1)
          minY = rng.double(-0.2, 1)
        }
        let maxX = minX + width
        let maxY = minY + height
        // Every point in the box, and none farther than a cell (2^-32) from it.
        let inside = reference.query(minX: minX, minY: minY, maxX: maxX, maxY: maxY)
        let near = reference.query(minX: minX - cell, minY: minY - cell, maxX: maxX + cell, maxY: maxY + cell)
        let actual = ids(&index, minX: minX, minY: minY, maxX: maxX, maxY: maxY)
        let box = "box [\(minX), \(maxX)] x [\(minY), \(maxY)]"
        #expect(Set(inside).isSubset(of: actual), "missed in \(box)")
        #expect(Set(actual).isSubset(of: near), "reported far from \(box)")
      }
    }

    for step in 0..<12_000 {
      let id = Int32(rng.int(idSpace))
      switch rng.int(10) {
      case 0...3:
        let p = randomPoint()
        if let old = reference.points[id] {
          do {
            let answer = index.move(id, fromX: old.x, fromY: old.y, x: p.x, y: p.y)
            #expect(answer)
          }
        } else {
          index.insert(id, x: p.x, y: p.y)
        }
        reference.set(id, x: p.x, y: p.y)
      case 4...5:  // small move, as in an animation frame
        if let old = reference.points[id] {
          let x = old.x + rng.double(-1e-5, 1e-5)
          let y = old.y + rng.double(-1e-5, 1e-5)
          do {
            let answer = index.move(id, fromX: old.x, fromY: old.y, x: x, y: y)
            #expect(answer)
          }
          reference.set(id, x: x, y: y)
        }
      case 6:  // jump
        let p = randomPoint()
        if let old = reference.points[id] {
          do {
            let answer = index.move(id, fromX: old.x, fromY: old.y, x: p.x, y: p.y)
            #expect(answer)
          }
          reference.set(id, x: p.x, y: p.y)
        }
      default:
        if let old = reference.points[id] {
          do {
            let answer = index.remove(id, x: old.x, y: old.y)
            #expect(answer)
          }
        } else {
          do {
            let answer = index.remove(id, x: 0.5, y: 0.5)
            #expect(!answer)
          }
        }
        reference.points[id] = nil
      }
      #expect(index.count == reference.points.count)
      if step % 100 == 0 { checkQueries() }
    }
    checkQueries()
    // Drain: merges must keep everything reachable down to empty.
    for id in reference.points.keys.sorted() {
      let old = reference.points[id]!
      do {
        let answer = index.remove(id, x: old.x, y: old.y)
        #expect(answer)
      }
    }
    reference.points.removeAll()
    #expect(index.count == 0)
    #expect(ids(&index, minX: -1, minY: -1, maxX: 2, maxY: 2).isEmpty)
  }

  @Test func pointsAreKeptToACell() {
    var index = SpatialIndex()
    index.insert(0, x: 0.25 + 0.3 * cell, y: 0.5)
    // In the box's cell, though left of the box: reported.
    #expect(ids(&index, minX: 0.25 + 0.6 * cell, minY: 0.5, maxX: 0.3, maxY: 0.5) == [0])
    // In the cell before or after the box's: not.
    #expect(ids(&index, minX: 0.25 + cell, minY: 0.5, maxX: 0.3, maxY: 0.5).isEmpty)
    #expect(ids(&index, minX: 0.2, minY: 0.5, maxX: 0.25 - 0.1 * cell, maxY: 0.5).isEmpty)
    // Past the world's edges in y: nothing, even for points on the edges.
    index.insert(1, x: 0.5, y: 1)
    index.insert(2, x: 0.5, y: 0)
    #expect(ids(&index, minX: 0, minY: 1 + cell, maxX: 1, maxY: 2).isEmpty)
    #expect(ids(&index, minX: 0, minY: -1, maxX: 1, maxY: -cell).isEmpty)
    #expect(ids(&index, minX: 0, minY: 1, maxX: 1, maxY: 2) == [1])
  }

  @Test func edgesAreIncluded() {
    var index = SpatialIndex()
    index.insert(0, x: 0.25, y: 0.5)
    index.insert(1, x: 0.5, y: 0.5)  // on the root's split lines
    index.insert(2, x: 0.75, y: 1.0)  // on the south edge of the world
    index.insert(3, x: 0, y: 0)
    #expect(ids(&index, minX: 0.25, minY: 0.5, maxX: 0.25, maxY: 0.5) == [0])
    #expect(ids(&index, minX: 0.5, minY: 0.5, maxX: 0.5, maxY: 0.5) == [1])
    #expect(ids(&index, minX: 0.25, minY: 0.5, maxX: 0.5, maxY: 0.5) == [0, 1])
    #expect(ids(&index, minX: 0.75, minY: 1.0, maxX: 0.75, maxY: 1.0) == [2])
    #expect(ids(&index, minX: 0, minY: 0, maxX: 0, maxY: 0) == [3])
    #expect(ids(&index, minX: -1, minY: 0, maxX: -1, maxY: 0) == [3])
    let above = 0.25 + cell  // the next cell
    let below = 0.5.nextDown
    #expect(ids(&index, minX: above, minY: 0, maxX: 1, maxY: 1).contains(0) == false)
    #expect(ids(&index, minX: 0, minY: 0, maxX: 1, maxY: below).contains(0) == false)
    #expect(ids(&index, minX: 0, minY: 0, maxX: 1, maxY: 1) == [0, 1, 2, 3])
  }

  @Test func removeAllEmptiesTheIndex() {
    var index = SpatialIndex()
    for id in 0..<Int32(500) {
      index.insert(id, x: Double(id) / 500, y: 0.5)
    }
    #expect(index.count == 500)
    index.removeAll()
    #expect(index.count == 0)
    #expect(ids(&index, minX: -1, minY: -1, maxX: 2, maxY: 2).isEmpty)
    index.insert(7, x: 0.1, y: 0.1)
    #expect(index.count == 1)
    #expect(ids(&index, minX: 0, minY: 0, maxX: 1, maxY: 1) == [7])
  }

  @Test func movingAcrossTheAntimeridian() {
    var index = SpatialIndex()
    index.insert(5, x: 0.999, y: 0.4)
    #expect(ids(&index, minX: -0.01, minY: 0.39, maxX: 0.01, maxY: 0.41) == [5])
    index.move(5, fromX: 0.999, fromY: 0.4, x: 1.001, y: 0.4)  // wraps to 0.001
    #expect(ids(&index, minX: 0.0005, minY: 0.39, maxX: 0.002, maxY: 0.41) == [5])
    #expect(ids(&index, minX: 0.99, minY: 0.39, maxX: 0.9995, maxY: 0.41).isEmpty)
    #expect(ids(&index, minX: 0.995, minY: 0.39, maxX: 1.005, maxY: 0.41) == [5])
    index.move(5, fromX: 1.001, fromY: 0.4, x: -0.002, y: 0.4)  // wraps to 0.998
    #expect(ids(&index, minX: 0.997, minY: 0.39, maxX: 0.999, maxY: 0.41) == [5])
    #expect(ids(&index, minX: 0, minY: 0.39, maxX: 0.01, maxY: 0.41).isEmpty)
    #expect(index.count == 1)
  }

  @Test func movesAndRemovalsNeedWhereTheIdIs() {
    var index = SpatialIndex()
    index.insert(3, x: 0.1, y: 0.1)
    index.insert(4, x: 0.1, y: 0.1)
    // Not where it is: nothing changes.
    do {
      let answer = index.move(3, fromX: 0.9, fromY: 0.9, x: 0.5, y: 0.5)
      #expect(!answer)
    }
    do {
      let answer = index.remove(3, x: 0.2, y: 0.1)
      #expect(!answer)
    }
    do {
      let answer = index.remove(1_000_000, x: 0.1, y: 0.1)
      #expect(!answer)
    }
    #expect(index.count == 2)
    #expect(ids(&index, minX: 0, minY: 0, maxX: 0.2, maxY: 0.2) == [3, 4])
    do {
      let answer = index.move(3, fromX: 0.1, fromY: 0.1, x: 0.9, y: 0.9)
      #expect(answer)
    }
    #expect(ids(&index, minX: 0, minY: 0, maxX: 0.5, maxY: 0.5) == [4])
    #expect(ids(&index, minX: 0.5, minY: 0.5, maxX: 1, maxY: 1) == [3])
    do {
      let answer = index.remove(3, x: 0.9, y: 0.9)
      #expect(answer)
    }
    do {
      let answer = index.remove(3, x: 0.9, y: 0.9)
      #expect(!answer)
    }
    #expect(index.count == 1)
  }

  @Test func firstIDFindsTheIdsAtACell() {
    var index = SpatialIndex()
    for id in 0..<Int32(40) { index.insert(id, x: 0.3, y: 0.6) }  // one cell: a deep leaf
    index.insert(40, x: 0.3 + 2 * cell, y: 0.6)
    do {
      let answer = index.firstID(atX: 0.3, y: 0.6, where: { $0 == 17 })
      #expect(answer == 17)
    }
    do {
      let answer = index.firstID(atX: 0.3, y: 0.6, where: { $0 == 40 })
      #expect(answer == nil)  // another cell
    }
    do {
      let answer = index.firstID(atX: 0.3 + 2 * cell, y: 0.6, where: { _ in true })
      #expect(answer == 40)
    }
    do {
      let answer = index.firstID(atX: 0.7, y: 0.6, where: { _ in true })
      #expect(answer == nil)
    }
  }

  /// Many insertions before a query go into the tree together, sorted along it and merged
  /// into the leaves the earlier batches made: the answers must be those of inserting one
  /// at a time, after every batch, then moves and removals must find every id.
  @Test(arguments: [(7 as UInt64, 1), (8, 1), (9, 3), (10, 7)])
  func bulkInsertionsMatchBruteForce(seed: UInt64, batches: Int) {
    var rng = IndexRNG(state: seed)
    var index = SpatialIndex()
    var reference = BruteForce()
    let spot = (x: rng.unit(), y: rng.unit())
    func checkQueries() {
      for _ in 0..<200 {
        let minX = rng.double(-0.1, 1), minY = rng.double(-0.1, 1)
        let size = rng.int(2) == 0 ? rng.double(0, 1e-5) : rng.double(0, 0.3)
        let near = reference.query(
          minX: minX - cell, minY: minY - cell, maxX: minX + size + cell, maxY: minY + size + cell)
        let actual = ids(&index, minX: minX, minY: minY, maxX: minX + size, maxY: minY + size)
        #expect(Set(reference.query(minX: minX, minY: minY, maxX: minX + size, maxY: minY + size)).isSubset(of: actual))
        #expect(Set(actual).isSubset(of: near))
      }
    }
    for id in 0..<Int32(6_000) {
      let p: (x: Double, y: Double)
      switch rng.int(4) {
      case 0: p = (rng.unit(), rng.unit())
      case 1: p = (spot.x + rng.double(-1e-6, 1e-6), spot.y + rng.double(-1e-6, 1e-6))
      case 2: p = (spot.x, spot.y)  // overflows the deepest leaf
      default: p = (rng.double(-1, 2), rng.double(-0.1, 1.1))
      }
      index.insert(id, x: p.x, y: p.y)
      reference.set(id, x: p.x, y: p.y)
      if (Int(id) + 1) % (6_000 / batches) == 0 { checkQueries() }
    }
    #expect(index.count == 6_000)
    #expect(ids(&index, minX: spot.x, minY: spot.y, maxX: spot.x, maxY: spot.y).count >= 1_000)
    for (id, p) in reference.points.sorted(by: { $0.key < $1.key }) {
      if id % 2 == 0 {
        do {
          let answer = index.remove(id, x: p.x, y: p.y)
          #expect(answer)
        }
      } else {
        do {
          let answer = index.move(id, fromX: p.x, fromY: p.y, x: 0.5, y: 0.25)
          #expect(answer)
        }
      }
    }
    #expect(index.count == 3_000)
    #expect(ids(&index, minX: 0.5, minY: 0.25, maxX: 0.5, maxY: 0.25) == (0..<Int32(6_000)).filter { $0 % 2 == 1 })
  }

  @Test func copiesAreIndependent() {
    var original = SpatialIndex()
    for id in 0..<Int32(200) {
      original.insert(id, x: 0.5 + Double(id) * 1e-6, y: 0.5)
    }
    var copy = original
    copy.move(0, fromX: 0.5, fromY: 0.5, x: 0.1, y: 0.1)
    copy.remove(1, x: 0.5 + 1e-6, y: 0.5)
    copy.insert(500, x: 0.5, y: 0.5)
    #expect(original.count == 200)
    #expect(copy.count == 200)
    #expect(ids(&original, minX: 0, minY: 0, maxX: 0.2, maxY: 0.2).isEmpty)
    #expect(ids(&copy, minX: 0, minY: 0, maxX: 0.2, maxY: 0.2) == [0])
    #expect(ids(&original, minX: 0.4, minY: 0.4, maxX: 0.6, maxY: 0.6) == Array(0..<200))
  }
}
