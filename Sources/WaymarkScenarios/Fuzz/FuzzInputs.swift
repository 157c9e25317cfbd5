import WaymarkCore
import WaymarkScripting

/// SplitMix64: a small, well-mixed generator whose whole state is one number, so a fuzz run
/// is fully named by its seed.
struct FuzzRandom {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  /// The next 64 random bits.
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A whole number in 0..<bound.
  mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(max(1, bound))) }

  /// A number in `range`.
  mutating func number(_ range: ClosedRange<Double>) -> Double {
    range.lowerBound + Double(next() >> 11) / Double(1 << 53) * (range.upperBound - range.lowerBound)
  }

  /// One of `items`.
  mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
}

/// Random but valid input for a map, as the line of Lua a script would write for it
/// (`map:tap(map:marker("sydney"))`, `map:pinch(1.25)`, `map:advance(0.3)`): what `waymark
/// fuzz` runs, and what its reproducer repeats word for word. Each input is chosen from what
/// the map holds now (its markers, windows, overlays, points of interest), so it is one a
/// person or the script could really make.
enum FuzzInputs {
  /// The next input for `map`, whose script made `clusterManagers` on it.
  static func next(for map: MapView, clusterManagers: [ClusterManager] = [], _ random: inout FuzzRandom) -> String {
    let size = map.viewSize
    let visible = map.markers.filter {
      map.projection.point(for: $0.position) != nil && map.projection.contains($0.position)
    }
    let tappable = visible.filter(\.tappable)
    let draggable = visible.filter(\.draggable)
    let overlays = map.overlays.filter(\.options.tappable)
    let places = map.pointsOfInterest
    var choices: [(weight: Int, make: (inout FuzzRandom) -> String)] = [
      (3, { "map:tap{ x = \(point(size, &$0)) }" }),
      (2, { "map:long_press{ x = \(point(size, &$0)) }" }),
      (1, { "map:double_tap{ x = \(point(size, &$0)) }" }),
      (2, { "map:pan{ x = \(number($0.number(-200...200), 1)), y = \(number($0.number(-200...200), 1)) }" }),
      (2, { "map:pinch(\(number($0.number(-2...2), 2)))" }),
      (1, { "map:rotate(\(number($0.number(-90...90), 1)))" }),
      (1, { "map:tilt(\(number($0.number(-30...30), 1)))" }),
      (2, { random in "map:animate(\(camera(map, &random)), { duration = \(random.pick(["0", "0.25", "1", "3"])) })" }),
      (1, { random in "map:move_camera(\(camera(map, &random)))" }),
      (4, { "map:advance(\($0.pick(["0.016", "0.1", "0.3", "1", "2.5"])))" }),
      (1, { _ in "map.selected_marker = nil" }),
      (1, { "map:rotate(\(number($0.number(-90...90), 1)), \(offCentre(size, &$0)))" }),
      (1, { "map:pinch(\(number($0.number(-2...2), 2)), \(offCentre(size, &$0)))" }),
      (1, { "map.gestures = { allow_scroll_during_rotate_or_zoom = \($0.pick(["true", "false"])) }" }),
      (1, { random in "map.camera_target_bounds = \(targetBounds(map, &random))" }),
      (1, { random in "map.device_location = \(coordinate(randomCoordinate(map, &random)))" }),
      (1, { "map.my_location_enabled = \($0.pick(["true", "false"]))" }),
      (1, { "map.compass_button = \($0.pick(["true", "false"]))" }),
    ]
    if !tappable.isEmpty {
      choices.append((6, { "map:tap(\(marker($0.pick(tappable))))" }))
      choices.append((2, { "map:long_press(\(marker($0.pick(tappable))))" }))
    }
    if !map.markers.isEmpty {
      choices.append((2, { "map.selected_marker = \(marker($0.pick(map.markers)))" }))
    }
    if !draggable.isEmpty {
      choices.append(
        (
          3,
          { random in
            let target = map.projection.coordinate(
              for: Point(x: random.number(0...size.width), y: random.number(0...size.height)))
            let to = target.map(coordinate) ?? "{ lat = 0, lng = 0 }"
            return
              "map:drag(\(marker(random.pick(draggable))), \(to), { duration = \(random.pick(["0.1", "0.5", "1"])) })"
          }
        ))
    }
    if map.infoWindow != nil {
      choices.append((3, { _ in "map:tap_info_window()" }))
      choices.append((1, { _ in "map:long_press_info_window()" }))
    }
    if !overlays.isEmpty {
      choices.append((2, { random in "map:tap(\(coordinate(spot(of: random.pick(overlays)))))" }))
    }
    if !places.isEmpty {
      choices.append((2, { random in "map:tap(\(coordinate(random.pick(places).location)))" }))
    }
    if map.isMyLocationEnabled {
      choices.append((1, { _ in "map:tap_my_location_button()" }))
    }
    if map.isCompassShown {
      choices.append((1, { _ in "map:tap_compass()" }))
    }
    if !clusterManagers.isEmpty {
      choices += clusterInputs(map, clusterManagers)
    }
    var roll = random.below(choices.reduce(0) { $0 + $1.weight })
    for choice in choices {
      if roll < choice.weight { return choice.make(&random) }
      roll -= choice.weight
    }
    return "map:advance(0.1)"
  }

  /// Items added near the view (a new id, or one already there: replaced), removed, a
  /// clustering now, now and then a clear (R62, R64), on one of the script's managers.
  private static func clusterInputs(_ map: MapView, _ managers: [ClusterManager])
    -> [(weight: Int, make: (inout FuzzRandom) -> String)]
  {
    func manager(_ random: inout FuzzRandom) -> (String, ClusterManager) {
      let index = random.below(managers.count)
      return ("map:cluster_managers()[\(index + 1)]", managers[index])
    }
    return [
      (
        3,
        { random in
          let (name, _) = manager(&random)
          let id = "fuzz \(random.below(200))"
          return
            "\(name):add{ id = \(LuaMapBridge.quoted(id)), position = \(coordinate(randomCoordinate(map, &random))) }"
        }
      ),
      (
        2,
        { random in
          let (name, manager) = manager(&random)
          let items = manager.items.items
          let id = items.isEmpty ? "fuzz 0" : random.pick(items).id
          return "\(name):remove(\(LuaMapBridge.quoted(id)))"
        }
      ),
      (1, { random in "\(manager(&random).0):cluster()" }),
      (1, { random in "\(manager(&random).0):clear()" }),
    ]
  }

  /// `map:marker("id")`.
  private static func marker(_ marker: Marker) -> String { "map:marker(\(LuaMapBridge.quoted(marker.id)))" }

  /// `{ lat = ..., lng = ... }` with six decimals, as the trace rounds them.
  private static func coordinate(_ coordinate: Coordinate) -> String {
    "{ lat = \(number(coordinate.latitude, 6)), lng = \(number(coordinate.longitude, 6)) }"
  }

  /// `x, y = ...` inside a point table: a random point of the view.
  private static func point(_ size: Size, _ random: inout FuzzRandom) -> String {
    "\(number(random.number(0...size.width), 1)), y = \(number(random.number(0...size.height), 1))"
  }

  /// A pinch's or rotation's options: a random point of the view and a movement (R67).
  private static func offCentre(_ size: Size, _ random: inout FuzzRandom) -> String {
    let pan = "x = \(number(random.number(-100...100), 1)), y = \(number(random.number(-100...100), 1))"
    return "{ point = { x = \(point(size, &random)) }, pan = { \(pan) } }"
  }

  /// The coordinate under a random point of the view (the target if above the horizon).
  private static func randomCoordinate(_ map: MapView, _ random: inout FuzzRandom) -> Coordinate {
    map.projection.coordinate(
      for: Point(x: random.number(0...map.viewSize.width), y: random.number(0...map.viewSize.height)))
      ?? map.camera.target
  }

  /// Camera target bounds between two coordinates of the view, south-west first, or nil (R66).
  private static func targetBounds(_ map: MapView, _ random: inout FuzzRandom) -> String {
    guard random.below(4) != 0 else { return "nil" }
    let a = randomCoordinate(map, &random), b = randomCoordinate(map, &random)
    let southWest = Coordinate(latitude: min(a.latitude, b.latitude), longitude: min(a.longitude, b.longitude))
    let northEast = Coordinate(latitude: max(a.latitude, b.latitude), longitude: max(a.longitude, b.longitude))
    return "{ \(coordinate(southWest)), \(coordinate(northEast)) }"
  }

  /// A camera near the current one, within and a little past the map's zoom range.
  private static func camera(_ map: MapView, _ random: inout FuzzRandom) -> String {
    let target = map.projection.coordinate(
      for: Point(x: random.number(0...map.viewSize.width), y: random.number(0...map.viewSize.height)))
    let zoom = random.number((map.minZoom - 1)...(map.maxZoom + 1))
    return
      "{ target = \(coordinate(target ?? map.camera.target)), zoom = \(number(zoom, 2)), bearing = \(number(random.number(-30...400), 1)), tilt = \(number(random.number(0...80), 1)) }"
  }

  /// A coordinate on an overlay, where a tap can hit it.
  private static func spot(of overlay: Overlay) -> Coordinate {
    switch overlay.options.shape {
    case .circle(let center, _): return center
    case .polyline(let path, _): return path[path.count / 2]
    case .polygon(let outer, _):
      let count = Double(outer.count)
      return Coordinate(
        latitude: outer.reduce(0) { $0 + $1.latitude } / count, longitude: outer.reduce(0) { $0 + $1.longitude } / count
      )
    case .groundOverlay(let bounds, _): return bounds.center ?? Coordinate(latitude: 0, longitude: 0)
    }
  }

  /// `value` rounded to `decimals`, written as Lua reads it back exactly.
  private static func number(_ value: Double, _ decimals: Int) -> String { formatNumber(value, decimals: decimals) }
}
