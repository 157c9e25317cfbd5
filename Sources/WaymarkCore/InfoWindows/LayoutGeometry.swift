/// A point in window coordinates: points from the window's top-left corner, y down.
public struct LayoutPoint: Sendable, Equatable {
  /// Points to the right of the window's left edge.
  public var x: Double
  /// Points below the window's top edge.
  public var y: Double

  /// Creates a point.
  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }
}

/// A width and a height in points.
public struct LayoutSize: Sendable, Equatable {
  /// The width in points.
  public var width: Double
  /// The height in points.
  public var height: Double

  /// Creates a size.
  public init(width: Double, height: Double) {
    self.width = width
    self.height = height
  }

  /// Zero by zero.
  public static let zero = LayoutSize(width: 0, height: 0)
}

/// A rectangle in window coordinates: its top-left corner and its size.
public struct LayoutRect: Sendable, Equatable {
  /// The left edge.
  public var x: Double
  /// The top edge.
  public var y: Double
  /// The width in points.
  public var width: Double
  /// The height in points.
  public var height: Double

  /// Creates a rectangle from its top-left corner and size.
  public init(x: Double, y: Double, width: Double, height: Double) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }

  /// The rectangle's size.
  public var size: LayoutSize { LayoutSize(width: width, height: height) }
  /// The right edge, `x + width`.
  public var maxX: Double { x + width }
  /// The bottom edge, `y + height`.
  public var maxY: Double { y + height }
  /// The horizontal centre.
  public var midX: Double { x + width / 2 }

  /// True if `point` lies inside, the left and top edges included, the right and bottom excluded.
  public func contains(_ point: LayoutPoint) -> Bool {
    point.x >= x && point.x < maxX && point.y >= y && point.y < maxY
  }

  /// The same rectangle moved by `dx` to the right and `dy` down.
  public func offsetBy(dx: Double, dy: Double) -> LayoutRect {
    LayoutRect(x: x + dx, y: y + dy, width: width, height: height)
  }
}
