import WaymarkCore

/// The timeline of one map, written as it happens (see ``ReplayRecorder``).
final class SceneRecorder {
  /// The map recorded (weak: the run owns it).
  private(set) weak var map: MapView?
  /// The index of the scene's first record in the run's trace.
  let traceStart: Int
  private let number: Int
  private let policyName: String
  private let flatFollowsBearing: Bool
  private let appearDuration: Double
  private var time = 0.0

  // The timeline.
  private var events = SVGBuffer(capacity: 1 << 16)
  private var eventCount = 0
  private var keyframes = SVGBuffer(capacity: 1 << 12)
  private var bytesSinceKeyframe = 0
  private var lastKeyframeBytes = 0

  // Tables that events refer to by number.
  private var icons: [String: Int] = [:]
  private var iconTable: [String] = []
  private var windowTable: [String] = []
  private var overlayTable: [String] = []
  private var placeTable: [String] = []

  // The state as drawn, to detect changes and write keyframes.
  private struct Entry {
    let number: Int
    let order: Int
    let marker: Marker
    /// The number of its icon in the icon table (drawn when added or changed); for a
    /// multi-frame icon (R48), its frames' numbers with the seconds each frame shows.
    var icon: IconReference
  }

  /// An icon as a marker's record names it.
  private enum IconReference {
    /// One drawing: its number in the icon table.
    case single(Int)
    /// A multi-frame icon: each frame's number, each shown for `period` seconds in turn.
    case frames([Int], period: Double)
  }
  private var entries: [ObjectIdentifier: Entry] = [:]
  private var nextNumber = 0
  private var nextOrder = 0
  private var selected = -1
  private var window = -1
  private var shownWindow: (marker: ObjectIdentifier?, place: String?, layout: InfoWindowLayout)?
  private var overlays = -1
  private var places = -1

  init(map: MapView, number: Int, traceStart: Int) {
    self.map = map
    self.number = number
    self.traceStart = traceStart
    policyName = map.policy.name
    flatFollowsBearing = map.policy.flatMarkersFollowBearing
    appearDuration = map.policy.appearDuration
    time = map.clock.now
    for marker in map.markers { add(marker) }
    selected = map.selectedMarker.flatMap { entries[ObjectIdentifier($0)]?.number } ?? -1
    window = windowIndex(of: map)
    overlays = overlaySet(of: map)
    places = placeSet(of: map)
    writeKeyframe(map)
  }

  // MARK: Changes

  func record(_ change: MapChange) {
    guard let map else { return }
    // A keyframe is the state before this change: seeking to a time before it must not
    // show it.
    if bytesSinceKeyframe > 2 * lastKeyframeBytes + 16_384 { writeKeyframe(map) }
    time = map.clock.now
    switch change {
    case .markerAdded(let marker):
      let entry = add(marker)
      event("a") { buffer in
        buffer.byte(UInt8(ascii: ","))
        self.writeMarker(entry, to: &buffer)
      }
    case .markerRemoved(let marker):
      guard let entry = entries.removeValue(forKey: ObjectIdentifier(marker)) else { return }
      event("r") { buffer in
        buffer.byte(UInt8(ascii: ","))
        buffer.integer(Int64(entry.number))
      }
    case .markerMoved(let marker):
      guard let entry = entries[ObjectIdentifier(marker)] else { return }
      event("m") { buffer in
        buffer.byte(UInt8(ascii: ","))
        buffer.integer(Int64(entry.number))
        Self.writeCoordinate(marker.position, to: &buffer)
      }
    case .markerChanged(let marker):
      guard var entry = entries[ObjectIdentifier(marker)] else { return }
      entry.icon = icon(of: marker)
      entries[ObjectIdentifier(marker)] = entry
      event("u") { buffer in
        buffer.byte(UInt8(ascii: ","))
        self.writeMarker(entry, to: &buffer)
      }
    case .selectionChanged:
      let newSelected = map.selectedMarker.flatMap { entries[ObjectIdentifier($0)]?.number } ?? -1
      let newWindow = windowIndex(of: map)
      guard newSelected != selected || newWindow != window else { return }
      (selected, window) = (newSelected, newWindow)
      event("s") { buffer in
        buffer.byte(UInt8(ascii: ","))
        Self.writeSigned(newSelected, to: &buffer)
        buffer.byte(UInt8(ascii: ","))
        Self.writeSigned(newWindow, to: &buffer)
      }
    case .cameraMoved:
      event("c") { buffer in Self.writeCamera(map.camera, to: &buffer) }
    case .cameraIdle:
      event("i") { _ in }
    case .overlaysChanged:
      overlays = overlaySet(of: map)
      let set = overlays
      event("o") { buffer in
        buffer.byte(UInt8(ascii: ","))
        buffer.integer(Int64(set))
      }
    case .placesChanged:
      places = placeSet(of: map)
      let set = places
      event("p") { buffer in
        buffer.byte(UInt8(ascii: ","))
        buffer.integer(Int64(set))
      }
    case .viewChanged:
      event("v") { buffer in Self.writeView(map, to: &buffer) }
    case .input(let input):
      event("t") { buffer in
        buffer.byte(UInt8(ascii: ","))
        buffer.json(input.kind.rawValue)
        buffer.byte(UInt8(ascii: ","))
        buffer.number(input.point.x)
        buffer.byte(UInt8(ascii: ","))
        buffer.number(input.point.y)
      }
    }
  }

  /// A picture was taken now (`"k"`).
  func markPicture() {
    guard let map else { return }
    time = map.clock.now
    event("k") { _ in }
  }

  /// Appends one event `[t,"op",...]`.
  private func event(_ op: StaticString, _ fields: (inout SVGBuffer) -> Void) {
    let before = events.bytes.count
    if eventCount > 0 { events.byte(UInt8(ascii: ",")) }
    events.byte(UInt8(ascii: "["))
    events.number(time, decimals: 6)
    events.raw(",\"")
    events.raw(op)
    events.byte(UInt8(ascii: "\""))
    fields(&events)
    events.byte(UInt8(ascii: "]"))
    eventCount += 1
    bytesSinceKeyframe += events.bytes.count - before
  }

  // MARK: State

  @discardableResult
  private func add(_ marker: Marker) -> Entry {
    let entry = Entry(number: nextNumber, order: nextOrder, marker: marker, icon: icon(of: marker))
    nextNumber += 1
    nextOrder += 1
    entries[ObjectIdentifier(marker)] = entry
    return entry
  }

  /// `n,"id",lat,lng,icon,gx,gy,ax,ay,rotation,flat,opacity,z,order[,appear,start]`.
  private func writeMarker(_ entry: Entry, to buffer: inout SVGBuffer) {
    let marker = entry.marker
    buffer.integer(Int64(entry.number))
    buffer.byte(UInt8(ascii: ","))
    buffer.json(marker.id)
    Self.writeCoordinate(marker.position, to: &buffer)
    buffer.byte(UInt8(ascii: ","))
    switch entry.icon {
    case .single(let number): buffer.integer(Int64(number))
    case .frames(let numbers, let period):
      // `[period,n1,n2,...]`: the replay shows frame ⌊t / period⌋ mod count.
      buffer.byte(UInt8(ascii: "["))
      buffer.number(period, decimals: 9)
      for number in numbers {
        buffer.byte(UInt8(ascii: ","))
        buffer.integer(Int64(number))
      }
      buffer.byte(UInt8(ascii: "]"))
    }
    for value in [
      marker.groundAnchor.x, marker.groundAnchor.y, marker.infoWindowAnchor.x, marker.infoWindowAnchor.y,
      marker.rotation, marker.flat ? 1 : 0, marker.opacity, Double(marker.zIndex), Double(entry.order),
    ] {
      buffer.byte(UInt8(ascii: ","))
      buffer.number(value, decimals: 6)
    }
    // A marker playing its appear animation (R45): `,appear,start`, 1 a pop, 2 a fade in.
    if let appearance = map?.appearance(of: marker) {
      buffer.raw(appearance.animation == .pop ? ",1," : ",2,")
      buffer.number(appearance.start, decimals: 6)
    }
  }

  /// The marker's icon as its record names it: its drawing, or each frame's (R48).
  private func icon(of marker: Marker) -> IconReference {
    guard marker.iconView == nil, case .frames(let frames, let duration) = marker.icon, !frames.isEmpty else {
      return .single(icon(of: marker, frame: nil))
    }
    return .frames(frames.map { icon(of: marker, frame: $0) }, period: duration / Double(frames.count))
  }

  /// The number of a drawing of the marker's icon (showing `frame` of a multi-frame icon)
  /// in the icon table: `[art, selected art, width, height]`, the size of the rectangle
  /// inside the icon's insets, then the left and top insets if any (R37).
  private func icon(of marker: Marker, frame: MarkerIconFrame?) -> Int {
    var art = SVGBuffer(capacity: 256), selectedArt = SVGBuffer(capacity: 512)
    MarkerArt.appendIcon(of: marker, frame: frame, selected: false, to: &art)
    let insets = frame == nil ? marker.iconInsets : .zero
    let key =
      insets == .zero ? art.text : art.text + "\u{0}\(insets.left),\(insets.top),\(insets.bottom),\(insets.right)"
    if let index = icons[key] { return index }
    MarkerArt.appendIcon(of: marker, frame: frame, selected: true, to: &selectedArt)
    let size = frame?.size ?? marker.alignmentSize
    var entry = SVGBuffer(capacity: 1024)
    entry.byte(UInt8(ascii: "["))
    entry.json(key)
    entry.byte(UInt8(ascii: ","))
    entry.json(selectedArt.text)
    entry.byte(UInt8(ascii: ","))
    entry.number(size.width)
    entry.byte(UInt8(ascii: ","))
    entry.number(size.height)
    if insets != .zero {
      entry.byte(UInt8(ascii: ","))
      entry.number(insets.left)
      entry.byte(UInt8(ascii: ","))
      entry.number(insets.top)
    }
    entry.byte(UInt8(ascii: "]"))
    iconTable.append(entry.text)
    icons[key] = iconTable.count - 1
    return iconTable.count - 1
  }

  /// The number of the shown window in the window table (-1: none), drawing it if new.
  private func windowIndex(of map: MapView) -> Int {
    guard let shown = map.infoWindow else {
      shownWindow = nil
      return -1
    }
    let identity = (marker: shown.marker.map(ObjectIdentifier.init), place: shown.pointOfInterest?.placeID)
    if let last = shownWindow, last.marker == identity.marker, last.place == identity.place,
      last.layout == shown.layout
    {
      return window
    }
    shownWindow = (identity.marker, identity.place, shown.layout)
    var body = SVGBuffer(capacity: 2048), labels = SVGBuffer(capacity: 256)
    InfoWindowArt.append(shown.layout, body: &body, labels: &labels)
    var entry = SVGBuffer(capacity: 4096)
    entry.raw("{\"marker\":")
    Self.writeSigned(shown.marker.flatMap { entries[ObjectIdentifier($0)]?.number } ?? -1, to: &entry)
    entry.raw(",\"id\":")
    if let marker = shown.marker { entry.json(marker.id) } else { entry.raw("null") }
    if let poi = shown.pointOfInterest {
      entry.raw(",\"place\":[")
      entry.json(poi.placeID)
      Self.writeCoordinate(poi.location, to: &entry)
      entry.byte(UInt8(ascii: "]"))
    }
    entry.raw(",\"kind\":")
    entry.json(shown.kindName)
    entry.raw(",\"w\":")
    entry.number(shown.layout.size.width)
    entry.raw(",\"h\":")
    entry.number(shown.layout.size.height)
    entry.raw(",\"body\":")
    entry.json(body.text)
    entry.raw(",\"labels\":")
    entry.json(labels.text)
    entry.raw(",\"text\":")
    entry.json(InfoWindowText.lines(of: shown.layout).joined(separator: "\n"))
    entry.byte(UInt8(ascii: "}"))
    windowTable.append(entry.text)
    return windowTable.count - 1
  }

  /// The number of the map's overlays, drawn in order, in the overlay table.
  private func overlaySet(of map: MapView) -> Int {
    var set = SVGBuffer(capacity: 4096)
    set.byte(UInt8(ascii: "["))
    for (index, overlay) in OverlayLayer.sorted(map.overlays).enumerated() {
      let art = OverlayArt(overlay)
      if index > 0 { set.byte(UInt8(ascii: ",")) }
      set.raw("{\"id\":")
      set.json(art.id)
      set.raw(",\"kind\":")
      set.json(art.kind)
      set.raw(",\"paint\":")
      set.json(art.paint)
      set.raw(",\"label\":")
      if let label = art.label { set.json(label) } else { set.raw("null") }
      set.raw(",\"shapes\":[")
      for (s, shape) in art.shapes.enumerated() {
        if s > 0 { set.byte(UInt8(ascii: ",")) }
        set.raw(shape.closed ? "{\"closed\":true,\"points\":[" : "{\"closed\":false,\"points\":[")
        for (p, point) in shape.points.enumerated() {
          if p > 0 { set.byte(UInt8(ascii: ",")) }
          set.number(point.x, decimals: 12)
          set.byte(UInt8(ascii: ","))
          set.number(point.y, decimals: 12)
        }
        set.raw("]}")
      }
      set.raw("]}")
    }
    set.byte(UInt8(ascii: "]"))
    overlayTable.append(set.text)
    return overlayTable.count - 1
  }

  /// The number of the map's points of interest and my-location dot in the place table.
  private func placeSet(of map: MapView) -> Int {
    var set = SVGBuffer(capacity: 1024)
    set.raw("{\"pois\":[")
    for (index, poi) in map.pointsOfInterest.enumerated() {
      if index > 0 { set.byte(UInt8(ascii: ",")) }
      set.byte(UInt8(ascii: "["))
      set.json(poi.placeID)
      set.byte(UInt8(ascii: ","))
      set.json(poi.name)
      Self.writeCoordinate(poi.location, to: &set)
      set.byte(UInt8(ascii: "]"))
    }
    set.raw("],\"me\":")
    if map.isMyLocationEnabled, let location = map.myLocation {
      set.byte(UInt8(ascii: "["))
      set.number(location.latitude, decimals: 10)
      set.byte(UInt8(ascii: ","))
      set.number(location.longitude, decimals: 10)
      set.byte(UInt8(ascii: "]"))
    } else {
      set.raw("null")
    }
    set.byte(UInt8(ascii: "}"))
    placeTable.append(set.text)
    return placeTable.count - 1
  }

  /// `{"at":events before it,"t","camera","view","markers","selected","window","overlays","places","order"}`.
  private func writeKeyframe(_ map: MapView) {
    let before = keyframes.bytes.count
    if before > 0 { keyframes.byte(UInt8(ascii: ",")) }
    keyframes.raw("{\"at\":")
    keyframes.integer(Int64(eventCount))
    keyframes.raw(",\"t\":")
    keyframes.number(time, decimals: 6)
    keyframes.raw(",\"camera\":[")
    Self.writeCamera(map.camera, to: &keyframes, leadingComma: false)
    keyframes.raw("],\"view\":[")
    Self.writeView(map, to: &keyframes, leadingComma: false)
    keyframes.raw("],\"markers\":[")
    for (index, entry) in entries.values.sorted(by: { $0.number < $1.number }).enumerated() {
      if index > 0 { keyframes.byte(UInt8(ascii: ",")) }
      keyframes.byte(UInt8(ascii: "["))
      writeMarker(entry, to: &keyframes)
      keyframes.byte(UInt8(ascii: "]"))
    }
    keyframes.raw("],\"selected\":")
    Self.writeSigned(selected, to: &keyframes)
    keyframes.raw(",\"window\":")
    Self.writeSigned(window, to: &keyframes)
    keyframes.raw(",\"overlays\":")
    keyframes.integer(Int64(overlays))
    keyframes.raw(",\"places\":")
    keyframes.integer(Int64(places))
    keyframes.raw(",\"order\":")
    keyframes.integer(Int64(nextOrder))
    keyframes.byte(UInt8(ascii: "}"))
    lastKeyframeBytes = keyframes.bytes.count - before
    bytesSinceKeyframe = 0
  }

  // MARK: Writing

  private static func writeCoordinate(_ coordinate: Coordinate, to buffer: inout SVGBuffer) {
    buffer.byte(UInt8(ascii: ","))
    buffer.number(coordinate.latitude, decimals: 10)
    buffer.byte(UInt8(ascii: ","))
    buffer.number(coordinate.longitude, decimals: 10)
  }

  private static func writeCamera(_ camera: CameraPosition, to buffer: inout SVGBuffer, leadingComma: Bool = true) {
    if !leadingComma {
      buffer.number(camera.target.latitude, decimals: 10)
      buffer.byte(UInt8(ascii: ","))
      buffer.number(camera.target.longitude, decimals: 10)
    } else {
      writeCoordinate(camera.target, to: &buffer)
    }
    for value in [camera.zoom, camera.bearing, camera.tilt] {
      buffer.byte(UInt8(ascii: ","))
      buffer.number(value, decimals: 8)
    }
  }

  private static func writeView(_ map: MapView, to buffer: inout SVGBuffer, leadingComma: Bool = true) {
    let padding = map.padding
    for (index, value) in [
      map.viewSize.width, map.viewSize.height, padding.top, padding.left, padding.bottom, padding.right,
    ].enumerated() {
      if index > 0 || leadingComma { buffer.byte(UInt8(ascii: ",")) }
      buffer.number(value, decimals: 4)
    }
  }

  private static func writeSigned(_ value: Int, to buffer: inout SVGBuffer) {
    if value < 0 { buffer.byte(UInt8(ascii: "-")) }
    buffer.integer(Int64(abs(value)))
  }

  // MARK: Finishing

  /// The scene, complete.
  func finish(traceEnd: Int) -> ReplayScene {
    var json = SVGBuffer(capacity: events.bytes.count + keyframes.bytes.count + 4096)
    json.raw("{\"title\":")
    json.json("map \(number) (\(policyName))")
    json.raw(",\"flatFollowsBearing\":")
    json.raw(flatFollowsBearing ? "true" : "false")
    json.raw(",\"appearDuration\":")
    json.number(appearDuration, decimals: 6)
    json.raw(",\"end\":")
    json.number(map?.clock.now ?? time, decimals: 6)
    json.raw(",\"icons\":[")
    json.raw(iconTable.joined(separator: ","))
    json.raw("],\"windows\":[")
    json.raw(windowTable.joined(separator: ","))
    json.raw("],\"overlays\":[")
    json.raw(overlayTable.joined(separator: ","))
    json.raw("],\"places\":[")
    json.raw(placeTable.joined(separator: ","))
    json.raw("],\"keyframes\":[")
    json.raw(keyframes.text)
    json.raw("],\"events\":[")
    json.raw(events.text)
    json.raw("]}")
    return ReplayScene(
      json: json.text, traceRange: traceStart..<max(traceStart, traceEnd), duration: map?.clock.now ?? time)
  }
}

/// The text of a laid-out window: its lines, top to bottom, as the SVG's `<text>` elements
/// hold them (what `waymarkReplay.state()` and the live map's `/state` call its text).
package enum InfoWindowText {
  /// The non-empty text lines of `layout`, top to bottom.
  package static func lines(of layout: InfoWindowLayout) -> [String] {
    var lines: [String] = []
    func walk(_ node: LaidOutNode) {
      if case .text(let text) = node.element { lines += text.lines.map(\.text).filter { !$0.isEmpty } }
      node.children.forEach(walk)
    }
    walk(layout.content)
    return lines
  }
}
