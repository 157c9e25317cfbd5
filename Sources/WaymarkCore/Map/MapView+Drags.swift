/// A marker being dragged (R18): the finger moves its ground anchor from `from` to `to`.
struct MarkerDrag {
  let marker: Marker
  let from: WorldPoint
  let to: Coordinate
  let start: Double
  let duration: Double
  var nextSample: Double
}

/// A marker position animation (S3).
struct MarkerAnimation {
  let marker: Marker
  let from: WorldPoint
  let to: Coordinate
  let start: Double
  let duration: Double
  let easing: Easing
  let completion: ((Bool) -> Void)?
}

extension MapView {
  // MARK: Drags (R18)

  /// Drags a marker: a long press on its icon and a finger moving to `destination` over
  /// `duration` seconds. If the topmost marker there is draggable: did_begin_dragging_marker,
  /// did_drag_marker at the drag sampling rate with the position already updated, and
  /// did_end_dragging_marker (R18). Otherwise it is a long press (R19).
  public func drag(_ marker: Marker, to destination: Coordinate, duration: Double = 1) throws(MapError) {
    try requireNoCallbackRunning("drag")
    let destination = try destination.validated("drag.to")
    try MapError.requireNonNegative(duration, "drag.duration")
    let point = try iconPoint(of: marker, action: "drag")
    if let window = infoWindow, let frame = infoWindowFrame, frame.contains(point), window.marker != nil {
      try longPress(at: point)
      return
    }
    guard let hit = topmostMarker(at: point), hit.draggable else {
      try longPress(at: point)
      return
    }
    notify(.input(MapInput(kind: .drag, point: point)))
    beginDrag(hit, to: destination, duration: duration)
  }

  /// Starts a drag (no selection change, no long-press callback: R18).
  func beginDrag(_ marker: Marker, to destination: Coordinate, duration: Double) {
    if let running = drag { endDrag(running.marker) }
    emit(.didBeginDraggingMarker(marker))
    guard marker.map === self else { return }
    drag = MarkerDrag(
      marker: marker, from: Mercator.worldPoint(marker.position), to: destination, start: clock.now,
      duration: duration, nextSample: clock.now)
    if duration == 0 && destination == marker.position {
      drag = nil
      endDrag(marker)
      return
    }
    scheduleFrame()
  }

  /// Moves the dragged marker for this frame: did_drag_marker at the drag sampling rate, and
  /// did_end_dragging_marker at the end.
  func stepDrag(at now: Double) {
    guard var active = drag else { return }
    guard active.marker.map === self else {
      drag = nil
      return
    }
    let finished = now >= active.start + active.duration
    guard finished || now + 1e-9 >= active.nextSample else { return }
    active.nextSample = now + 1 / policy.dragFrameRate
    drag = active
    let progress = active.duration > 0 ? min((now - active.start) / active.duration, 1) : 1
    let marker = active.marker
    marker.move(
      to: progress >= 1 ? active.to : Mercator.interpolate(from: active.from, to: active.to, fraction: progress))
    emit(.didDragMarker(marker))
    if progress >= 1, drag?.marker === marker {
      drag = nil
      endDrag(marker)
    }
  }

  func endDrag(_ marker: Marker) {
    emit(.didEndDraggingMarker(marker))
  }

  /// Moves animated markers for this frame; finished animations run their completion.
  func stepMarkerAnimations(at now: Double) {
    guard !markerAnimations.isEmpty else { return }
    var finished: [MarkerAnimation] = []
    for (key, animation) in markerAnimations.sorted(by: { $0.value.marker.serial < $1.value.marker.serial }) {
      let progress = animation.duration > 0 ? (now - animation.start) / animation.duration : 1
      if progress >= 1 {
        animation.marker.move(to: animation.to)
        markerAnimations[key] = nil
        finished.append(animation)
      } else {
        let eased = animation.easing.value(at: progress)
        animation.marker.move(to: Mercator.interpolate(from: animation.from, to: animation.to, fraction: eased))
      }
    }
    for animation in finished { animation.completion?(true) }
  }
}
