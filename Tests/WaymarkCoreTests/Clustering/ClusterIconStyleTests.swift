import Testing

@testable import WaymarkCore

/// GMUDefaultClusterIconGeneratorTest's labels and bucket checks.
@Suite struct ClusterIconStyleTests {
  @Test("R63: labels: the count below the first bucket, else the bucket reached and +")
  func labels() throws {
    let style = try ClusterIconStyle(buckets: [10, 20, 50, 100, 1000])
    let cases = [
      (1, "1"), (2, "2"), (9, "9"), (10, "10+"), (11, "10+"), (21, "20+"), (51, "50+"), (500, "100+"),
      (1010, "1000+"),
    ]
    for (count, label) in cases { #expect(style.label(count: count) == label, "count \(count)") }
    #expect([9, 10, 21, 51, 500, 1010].map { style.bucketIndex(count: $0) } == [0, 0, 1, 2, 3, 4])
  }

  @Test("R63: the default buckets 10, 50, 100, 200, 1000 and Google's colours")
  func defaults() throws {
    let style = try ClusterIconStyle()
    #expect(
      [9, 10, 49, 50, 199, 200, 999, 1000, 5000].map(style.label(count:)) == [
        "9", "10+", "10+", "50+", "100+", "200+", "200+", "1000+", "1000+",
      ])
    #expect(style.color(count: 4) == "#0099cc")
    #expect(style.color(count: 50) == "#669900")
    #expect(style.color(count: 2000) == "#9933cc")
    #expect(style.diameter(count: 4) == 26, "20 points of text and 6 of padding")
    #expect(style.diameter(count: 1000) > style.diameter(count: 50), "larger buckets are padded more")
  }

  @Test("R63: buckets must be non-empty, positive and strictly increasing")
  func invalidBuckets() {
    #expect(throws: MapError.invalidValue(field: "buckets", value: "{}", reason: "must not be empty")) {
      try ClusterIconStyle(buckets: [])
    }
    #expect(throws: MapError.invalidValue(field: "buckets[1]", value: "-10", reason: "must be positive")) {
      try ClusterIconStyle(buckets: [-10, 10])
    }
    #expect(
      throws: MapError.invalidValue(
        field: "buckets[2]", value: "10", reason: "must be larger than the bucket before it (10)")
    ) { try ClusterIconStyle(buckets: [10, 10]) }
  }
}
