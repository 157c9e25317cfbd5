import WaymarkCore

/// Reads a map into scene values: the one place where what pictures show of a map is read.
/// A marker's icon, anchors, insets, rotation, opacity, flatness, z-index and appear
/// animation are read here and nowhere else; so are the shown window, the overlays, the
/// places, the camera and the view. Sprites it has drawn before are referred to by number,
/// so markers that look alike share one.
struct SceneBuilder {
  /// What the values made so far refer to.
  private(set) var library = SceneLibrary()
  private var spriteNumbers: [SpriteKey: Int] = [:]
  /// The last sprite asked for: neighbours most often look alike, and comparing is cheaper
  /// than hashing.
  private var lastSprite: (key: SpriteKey, number: Int)?
  /// Whether flat markers turn with the map (the policy's R4 setting).
  private let flatMarkersFollowBearing: Bool
  /// How long appear animations last (the policy's R45 setting).
  private let appearDuration: Double

  /// What makes one sprite: the look and how it sits around the ground anchor.
  private struct SpriteKey: Hashable {
    var look: MarkerLook
    var insets: EdgeInsets
    var groundAnchor: Point
    var windowAnchor: Point
  }

  /// A builder for scenes of `map`, under its policy.
  init(for map: MapView) {
    flatMarkersFollowBearing = map.policy.flatMarkersFollowBearing
    appearDuration = map.policy.appearDuration
  }

  // MARK: Markers

  /// `marker` of `map` as it is now, numbered `number`, `order`-th in the order of addition.
  mutating func marker(_ marker: Marker, number: Int, order: Int, on map: MapView) -> SceneMarker {
    var frames: SceneFrames?
    let sprite: Int
    if marker.iconView == nil, case .frames(let list, let duration) = marker.icon, !list.isEmpty {
      let sprites = list.map { self.sprite(marker, Self.look(of: marker, frame: $0)) }
      frames = SceneFrames(period: duration / Double(list.count), sprites: sprites)
      sprite = sprites[marker.iconFrame.flatMap(list.firstIndex(of:)) ?? 0]
    } else {
      sprite = self.sprite(marker, Self.look(of: marker, frame: nil))
    }
    let appear = map.appearance(of: marker).map { appearance in
      SceneAppear(
        animation: appearance.animation == .pop ? .pop : .fadeIn, start: appearance.start, duration: appearDuration)
    }
    let position = marker.position
    return SceneMarker(
      n: number, id: marker.id, lat: position.latitude, lng: position.longitude, sprite: sprite, frames: frames,
      rotation: marker.rotation, ground: marker.flat && flatMarkersFollowBearing, opacity: marker.opacity,
      z: Int(marker.zIndex), order: order, appear: appear)
  }

  /// What the icon of `marker` shows (`frame` of a multi-frame icon, else the one it shows now).
  private static func look(of marker: Marker, frame: MarkerIconFrame?) -> MarkerLook {
    if let view = marker.iconView {
      let fill = view.color.flatMap(ContentColor.init(parsing:)).map(Palette.hex) ?? Palette.placeholder
      return .view(name: view.name, size: view.size, fill: fill)
    }
    if let role = ClusterMarkerRole.of(marker), let label = role.label, let color = role.color,
      case .image(_, let size) = marker.icon
    {
      return .cluster(label: label, color: color, size: size)
    }
    switch marker.icon {
    case .defaultPin: return .pin(color: Palette.pin, size: marker.iconSize)
    case .tintedPin(let color):
      let tint = Palette.color(color, or: ContentColor(red: 0xEA, green: 0x43, blue: 0x35))
      return .pin(color: Palette.hex(tint), size: marker.iconSize)
    case .image(let name, let size): return .image(name: name, size: size)
    case .frames:
      let shown = frame ?? marker.iconFrame
      return .image(name: shown?.name ?? "", size: shown?.size ?? marker.iconSize)
    }
  }

  /// The number of the sprite of `look` placed as `marker` places its icon, drawn if new.
  private mutating func sprite(_ marker: Marker, _ look: MarkerLook) -> Int {
    let key = SpriteKey(
      look: look, insets: marker.iconInsets, groundAnchor: marker.groundAnchor, windowAnchor: marker.infoWindowAnchor)
    if let last = lastSprite, last.key == key { return last.number }
    let number: Int
    if let known = spriteNumbers[key] {
      number = known
    } else {
      library.sprites.append(Self.sprite(key))
      number = library.sprites.count - 1
      spriteNumbers[key] = number
    }
    lastSprite = (key, number)
    return number
  }

  /// Draws a sprite. The anchors are unit coordinates of the rectangle inside the insets
  /// (R37), whose points are found as hit-testing finds them (`MarkerGeometry`).
  private static func sprite(_ key: SpriteKey) -> MarkerSprite {
    let size = key.look.size, insets = key.insets, ground = key.groundAnchor, window = key.windowAnchor
    let width = size.width - insets.left - insets.right, height = size.height - insets.top - insets.bottom
    var art = SVGBuffer(capacity: 256), selectedArt = SVGBuffer(capacity: 512)
    MarkerArt.append(key.look, selected: false, to: &art)
    MarkerArt.append(key.look, selected: true, to: &selectedArt)
    return MarkerSprite(
      art: art.text, selectedArt: selectedArt.text,
      offset: ScenePoint(x: -(insets.left + ground.x * width), y: -(insets.top + ground.y * height)),
      box: SceneBox(
        left: (0 - ground.x) * width, top: (0 - ground.y) * height, right: (1 - ground.x) * width,
        bottom: (1 - ground.y) * height),
      window: ScenePoint(x: (window.x - ground.x) * width, y: (window.y - ground.y) * height))
  }

  // MARK: The rest of the map

  /// The window `map` shows, laid out and drawn, in the library; nil when none is shown.
  /// `marker` is its marker's number.
  mutating func window(of map: MapView, marker: Int?) -> Int? {
    guard let shown = map.infoWindow else { return nil }
    var body = SVGBuffer(capacity: 2048), labels = SVGBuffer(capacity: 256)
    InfoWindowArt.append(shown.layout, body: &body, labels: &labels)
    library.windows.append(
      SceneWindow(
        marker: marker, id: shown.marker?.id, place: shown.pointOfInterest.map(Self.poi), kind: shown.kindName,
        width: shown.layout.size.width, height: shown.layout.size.height, body: body.text, labels: labels.text,
        text: InfoWindowText.lines(of: shown.layout).joined(separator: "\n")))
    return library.windows.count - 1
  }

  /// The overlays of `map` in drawing order, lowest z-index first, then in the order they
  /// were added (R15), in the library.
  mutating func overlays(of map: MapView) -> Int {
    let sorted = map.overlays.enumerated().sorted { ($0.element.zIndex, $0.offset) < ($1.element.zIndex, $1.offset) }
    library.overlays.append(
      sorted.map { _, overlay in
        let art = OverlayArt(overlay)
        return SceneOverlay(
          id: art.id, kind: art.kind, paint: art.paint, label: art.label,
          shapes: art.shapes.map { shape in
            SceneOverlay.Shape(closed: shape.closed, points: shape.points.flatMap { [$0.x, $0.y] })
          })
      })
    return library.overlays.count - 1
  }

  /// The points of interest of `map` and its my-location dot (when shown), in the library.
  mutating func places(of map: MapView) -> Int {
    let me = map.myLocation
    library.places.append(
      ScenePlaces(
        pois: map.pointsOfInterest.map(Self.poi),
        me: me.map { SceneCoordinate(lat: $0.latitude, lng: $0.longitude) }))
    return library.places.count - 1
  }

  /// The camera of `map`.
  static func camera(of map: MapView) -> SceneCamera {
    let camera = map.camera
    return SceneCamera(
      lat: camera.target.latitude, lng: camera.target.longitude, zoom: camera.zoom, bearing: camera.bearing,
      tilt: camera.tilt)
  }

  /// The view of `map`: its size and padding.
  static func view(of map: MapView) -> SceneView {
    let size = map.viewSize, padding = map.padding
    return SceneView(
      width: size.width, height: size.height, top: padding.top, left: padding.left, bottom: padding.bottom,
      right: padding.right, compass: map.settings.compassButton ? true : nil)
  }

  private static func poi(_ poi: PointOfInterest) -> ScenePOI {
    ScenePOI(id: poi.placeID, name: poi.name, lat: poi.location.latitude, lng: poi.location.longitude)
  }
}

extension Scene {
  /// The scene of `map` now, as its SVG snapshot draws it: the markers that reach into the
  /// view, found through the map's spatial index (a picture of 100,000 markers costs what
  /// the visible ones cost), numbered in drawing order, and the shown window's marker.
  package init(of map: MapView) {
    var builder = SceneBuilder(for: map)
    let size = map.viewSize
    var shown = map.markers(in: Rect(x: 0, y: 0, width: size.width, height: size.height))
    let owner = map.infoWindow?.marker
    if let owner, !shown.contains(where: { $0 === owner }) { shown.append(owner) }
    var markers: [SceneMarker] = []
    markers.reserveCapacity(shown.count)
    for (index, marker) in shown.enumerated() {
      markers.append(builder.marker(marker, number: index, order: index, on: map))
    }
    let selected = map.selectedMarker.flatMap { selected in shown.firstIndex { $0 === selected } }
    let window = builder.window(of: map, marker: owner.flatMap { owner in shown.firstIndex { $0 === owner } })
    let overlays = builder.overlays(of: map), places = builder.places(of: map)
    state = SceneState(
      t: map.clock.now, camera: SceneBuilder.camera(of: map), view: SceneBuilder.view(of: map), markers: markers,
      selected: selected, window: window, overlays: overlays, places: places)
    library = builder.library
  }
}
