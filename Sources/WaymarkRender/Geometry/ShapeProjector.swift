import WaymarkCore

/// Draws world shapes on the screen for one camera, through the core's ``Projection``:
///
/// 1. each copy of the world that the camera sees is drawn (at low zoom the world repeats);
/// 2. edges are clipped on the ground against a near depth, in front of the camera, before
///    perspective (ground points are affine in world coordinates, so clipping interpolates);
/// 3. the projected shape is clipped to the view enlarged by a margin, so that paths never
///    carry the huge coordinates of a map zoomed far in;
/// 4. points closer than a fifth of a point to the last one drawn are dropped.
///
/// The replay page's drawing script does the same steps in the same order
/// (`MapDrawingScript`).
struct ShapeProjector {
  /// The camera.
  let projection: Projection
  /// The rectangle paths are clipped to: the view and a margin around it.
  let clip: Rect
  /// Ground points nearer than this depth are clipped away (a twentieth of the camera's
  /// distance: always below the bottom of the view at the tilts the map allows).
  let nearDepth: Double
  /// The world box the view sees, x unwrapped around the camera's target.
  let visible: (minX: Double, maxX: Double, minY: Double, maxY: Double)

  /// Points closer than this to the previous point drawn are left out.
  static let minimumStep = 0.2

  /// A projector for `projection`, clipping to its view enlarged by `margin` points.
  init(projection: Projection, margin: Double) {
    self.projection = projection
    let size = projection.viewSize
    clip = Rect(x: -margin, y: -margin, width: size.width + 2 * margin, height: size.height + 2 * margin)
    nearDepth = projection.cameraDistance * 0.05
    let corners = [
      Point(x: clip.minX, y: clip.minY), Point(x: clip.maxX, y: clip.minY),
      Point(x: clip.minX, y: clip.maxY), Point(x: clip.maxX, y: clip.maxY),
    ]
    let world = corners.compactMap { projection.worldPoint(for: $0) }
    if world.count == 4 {
      visible = (
        world.map(\.x).min()!, world.map(\.x).max()!, world.map(\.y).min()!, world.map(\.y).max()!
      )
    } else {
      // The horizon is in view: everything up to the far edge of the world may show.
      let target = Mercator.worldPoint(projection.camera.target)
      visible = (target.x - 1, target.x + 1, 0, 1)
    }
  }

  /// The x offsets (whole worlds) at which copies of `shape` may show.
  func copies(of shape: WorldShape) -> [Double] {
    guard shape.maxY >= visible.minY, shape.minY <= visible.maxY, shape.minX <= shape.maxX else { return [] }
    let first = (visible.minX - shape.maxX).rounded(.up), last = (visible.maxX - shape.minX).rounded(.down)
    guard first <= last else { return [] }
    return stride(from: first, through: last, by: 1).map { $0 }
  }

  /// The one copy of `shape` drawn for an overlay: the one whose first point is nearest the
  /// camera's target, as markers are drawn at their nearest copy.
  func nearestCopy(of shape: WorldShape) -> Double {
    guard let first = shape.points.first else { return 0 }
    let target = Mercator.worldPoint(projection.camera.target)
    return (target.x - first.x).rounded()
  }

  /// Appends `shape`, moved east by `offset` worlds, as SVG path data ("M x y L ... Z").
  /// Returns whether anything was drawn.
  @discardableResult
  func appendPath(_ shape: WorldShape, offset: Double, to buffer: inout SVGBuffer, decimals: Int = 1) -> Bool {
    var ground = shape.points.map {
      projection.groundPoint(forUnwrappedWorld: WorldPoint(x: $0.x + offset, y: $0.y))
    }
    if shape.closed {
      ground = Self.clipRing(ground, nearDepth: nearDepth)
      guard ground.count >= 3 else { return false }
      var screen = ground.map { projection.point(forGround: $0)! }
      screen = Self.clipRing(screen, to: clip)
      guard screen.count >= 3 else { return false }
      return Self.append(screen, closed: true, to: &buffer, decimals: decimals)
    }
    var drewAny = false
    var run: [Point] = []
    for index in ground.indices.dropLast() {
      guard let (a, b) = Self.clipSegment(ground[index], ground[index + 1], nearDepth: nearDepth),
        let (p, q) = Self.clipSegment(projection.point(forGround: a)!, projection.point(forGround: b)!, to: clip)
      else { continue }
      if let last = run.last, last != p {
        drewAny = Self.append(run, closed: false, to: &buffer, decimals: decimals) || drewAny
        run.removeAll(keepingCapacity: true)
      }
      if run.isEmpty { run.append(p) }
      run.append(q)
    }
    if run.count >= 2 { drewAny = Self.append(run, closed: false, to: &buffer, decimals: decimals) || drewAny }
    return drewAny
  }

  /// The screen points of `shape` at `offset` (clipped against the near depth only), or nil
  /// when all of it is behind the camera: for placing labels.
  func screenPoints(_ shape: WorldShape, offset: Double) -> [Point] {
    shape.points.compactMap { point in
      let ground = projection.groundPoint(forUnwrappedWorld: WorldPoint(x: point.x + offset, y: point.y))
      return ground.depth >= nearDepth ? projection.point(forGround: ground) : nil
    }
  }

  // MARK: Writing

  private static func append(_ points: [Point], closed: Bool, to buffer: inout SVGBuffer, decimals: Int) -> Bool {
    guard let first = points.first else { return false }
    buffer.byte(UInt8(ascii: "M"))
    buffer.number(first.x, decimals: decimals)
    buffer.byte(UInt8(ascii: " "))
    buffer.number(first.y, decimals: decimals)
    var last = first
    for (index, point) in points.enumerated().dropFirst() {
      let isEnd = index == points.count - 1
      if !isEnd || closed, abs(point.x - last.x) < minimumStep, abs(point.y - last.y) < minimumStep { continue }
      buffer.byte(UInt8(ascii: "L"))
      buffer.number(point.x, decimals: decimals)
      buffer.byte(UInt8(ascii: " "))
      buffer.number(point.y, decimals: decimals)
      last = point
    }
    if closed { buffer.byte(UInt8(ascii: "Z")) }
    return true
  }

  // MARK: Clipping

  /// Sutherland-Hodgman against `depth >= nearDepth`.
  static func clipRing(_ ring: [GroundPoint], nearDepth: Double) -> [GroundPoint] {
    guard ring.contains(where: { $0.depth < nearDepth }) else { return ring }
    var out: [GroundPoint] = []
    var previous = ring[ring.count - 1]
    for current in ring {
      let inside = current.depth >= nearDepth, wasInside = previous.depth >= nearDepth
      if inside != wasInside { out.append(crossing(previous, current, nearDepth)) }
      if inside { out.append(current) }
      previous = current
    }
    return out
  }

  /// The part of the segment in front of `nearDepth`, or nil.
  static func clipSegment(_ a: GroundPoint, _ b: GroundPoint, nearDepth: Double) -> (GroundPoint, GroundPoint)? {
    switch (a.depth >= nearDepth, b.depth >= nearDepth) {
    case (true, true): return (a, b)
    case (false, false): return nil
    case (true, false): return (a, crossing(a, b, nearDepth))
    case (false, true): return (crossing(a, b, nearDepth), b)
    }
  }

  private static func crossing(_ a: GroundPoint, _ b: GroundPoint, _ depth: Double) -> GroundPoint {
    let t = (depth - a.depth) / (b.depth - a.depth)
    return GroundPoint(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t, depth: depth)
  }

  /// Sutherland-Hodgman against each edge of `rect`.
  static func clipRing(_ ring: [Point], to rect: Rect) -> [Point] {
    if ring.allSatisfy({ $0.x >= rect.minX && $0.x <= rect.maxX && $0.y >= rect.minY && $0.y <= rect.maxY }) {
      return ring
    }
    var points = ring
    for edge in 0..<4 {
      guard let last = points.last else { return [] }
      var out: [Point] = []
      out.reserveCapacity(points.count + 4)
      var previous = last
      for current in points {
        let inside = Self.inside(current, edge, rect), wasInside = Self.inside(previous, edge, rect)
        if inside != wasInside { out.append(Self.crossing(previous, current, edge, rect)) }
        if inside { out.append(current) }
        previous = current
      }
      points = out
    }
    return points
  }

  /// Liang-Barsky: the part of the segment inside `rect`, or nil.
  static func clipSegment(_ a: Point, _ b: Point, to rect: Rect) -> (Point, Point)? {
    var t0 = 0.0, t1 = 1.0
    let dx = b.x - a.x, dy = b.y - a.y
    for (p, q) in [(-dx, a.x - rect.minX), (dx, rect.maxX - a.x), (-dy, a.y - rect.minY), (dy, rect.maxY - a.y)] {
      if p == 0 {
        if q < 0 { return nil }
        continue
      }
      let r = q / p
      if p < 0 { t0 = max(t0, r) } else { t1 = min(t1, r) }
      if t0 > t1 { return nil }
    }
    return (
      t0 == 0 ? a : Point(x: a.x + dx * t0, y: a.y + dy * t0), t1 == 1 ? b : Point(x: a.x + dx * t1, y: a.y + dy * t1)
    )
  }

  private static func inside(_ point: Point, _ edge: Int, _ rect: Rect) -> Bool {
    switch edge {
    case 0: point.x >= rect.minX
    case 1: point.x <= rect.maxX
    case 2: point.y >= rect.minY
    default: point.y <= rect.maxY
    }
  }

  private static func crossing(_ a: Point, _ b: Point, _ edge: Int, _ rect: Rect) -> Point {
    switch edge {
    case 0, 1:
      let x = edge == 0 ? rect.minX : rect.maxX
      return Point(x: x, y: a.y + (b.y - a.y) * (x - a.x) / (b.x - a.x))
    default:
      let y = edge == 2 ? rect.minY : rect.maxY
      return Point(x: a.x + (b.x - a.x) * (y - a.y) / (b.y - a.y), y: y)
    }
  }
}
