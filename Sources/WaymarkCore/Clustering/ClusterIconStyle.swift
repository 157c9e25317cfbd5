/// How a cluster's marker is labelled, coloured and sized (R63), as
/// GMUDefaultClusterIconGenerator draws it: a circle with the count, or the bucket it
/// reached followed by "+".
package struct ClusterIconStyle: Sendable, Equatable {
  /// Google's bucket colours, one a bucket: blue, green, orange, red, purple.
  package static let defaultColors = ["#0099cc", "#669900", "#ff8800", "#cc0000", "#9933cc"]
  /// Google's buckets.
  package static let defaultBuckets = [10, 50, 100, 200, 1000]
  /// The label's text style (Google's is bold 14 points).
  package static let labelStyle = TextStyle.body

  /// Strictly increasing positive counts; a count below the first is shown as it is.
  package let buckets: [Int]
  /// The circle's colour of each bucket; buckets past the last colour take the last.
  package let colors: [String]

  /// A style with these buckets; throws naming `field` unless they are non-empty, positive and
  /// strictly increasing (Google's generator raises then).
  package init(buckets: [Int] = defaultBuckets, colors: [String] = defaultColors, field: String = "buckets")
    throws(MapError)
  {
    guard !buckets.isEmpty else { throw .invalidValue(field: field, value: "{}", reason: "must not be empty") }
    for (position, bucket) in buckets.enumerated() {
      if bucket <= 0 {
        throw .invalidValue(field: "\(field)[\(position + 1)]", value: "\(bucket)", reason: "must be positive")
      }
      if position > 0 && buckets[position - 1] >= bucket {
        throw .invalidValue(
          field: "\(field)[\(position + 1)]", value: "\(bucket)",
          reason: "must be larger than the bucket before it (\(buckets[position - 1]))")
      }
    }
    self.buckets = buckets
    self.colors = colors
  }

  /// The bucket a count falls in: the last bucket not larger than it (0 below the first).
  package func bucketIndex(count: Int) -> Int {
    var index = 0
    while index + 1 < buckets.count && buckets[index + 1] <= count { index += 1 }
    return index
  }

  /// The label: the count below the first bucket ("9"), otherwise the bucket and "+" ("10+",
  /// "50+").
  package func label(count: Int) -> String {
    count < buckets[0] ? "\(count)" : "\(buckets[bucketIndex(count: count)])+"
  }

  /// The circle's colour for a count.
  package func color(count: Int) -> String {
    colors[min(bucketIndex(count: count), colors.count - 1)]
  }

  /// The circle's diameter in points: the label's larger side (at least 20), plus 3 points a
  /// bucket and 6, as Google pads larger buckets more.
  package func diameter(count: Int, metrics: InfoWindowMetrics = .standard) -> Double {
    let label = label(count: count)
    let text = max(metrics.width(of: label, style: Self.labelStyle), metrics.lineHeight(for: Self.labelStyle))
    return max(20, text) + 3 * Double(bucketIndex(count: count)) + 6
  }
}
