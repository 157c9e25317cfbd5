extension MapView {
  // MARK: Marker animations (S3, R46)

  /// Animates a marker's position (S3) on the virtual clock, at constant speed by default: a
  /// ``MarkerAnimationTarget`` animation moving the position only.
  package func animate(
    _ marker: Marker, to position: Coordinate, duration: Double, easing: Easing = .linear,
    completion: ((Bool) -> Void)? = nil
  ) throws(MapError) {
    guard marker.map === self else { throw .notOnThisMap(what: "marker \(marker.id)") }
    let position = try position.validated("position")
    try animate(
      marker, to: MarkerAnimationTarget(position: position), duration: duration, easing: easing,
      completion: completion)
  }

  /// Animates any of a marker's position, rotation and opacity (R46) on the frames the
  /// camera uses (R27), from their values now to `target`'s; the rotation turns the short
  /// way round. At the end the marker holds exactly the target's values.
  ///
  /// A new animation of the same marker replaces the running one from where the marker is
  /// (its completion gets false). Removing the marker stops it (completion false). Throws,
  /// starting nothing, when a value is out of its domain or the marker is on another map.
  public func animate(
    _ marker: Marker, to target: MarkerAnimationTarget, duration: Double, easing: Easing = .linear,
    completion: ((Bool) -> Void)? = nil
  ) throws(MapError) {
    guard marker.map === self else { throw .notOnThisMap(what: "marker \(marker.id)") }
    let target = try target.validated()
    try MapError.requireDuration(duration, "animateMarker.duration")
    marker.keepOwnPlace()
    let replaced = cameraController.markerAnimations[ObjectIdentifier(marker)]
    cameraController.markerAnimations[ObjectIdentifier(marker)] = MarkerAnimation(
      marker: marker, to: target, start: clock.now, duration: duration, easing: easing, completion: completion)
    scheduleFrame()
    replaced?.completion?(false)
  }

  /// Moves animated markers for this frame; finished animations run their completion.
  func stepMarkerAnimations(at now: Double) {
    guard !cameraController.markerAnimations.isEmpty else { return }
    var finished: [MarkerAnimation] = []
    for (key, animation) in cameraController.markerAnimationsInSerialOrder {
      let progress = animation.duration > 0 ? (now - animation.start) / animation.duration : 1
      let fraction = progress >= 1 ? 1 : animation.easing.value(at: progress)
      if progress >= 1 {
        cameraController.markerAnimations[key] = nil
        finished.append(animation)
      }
      apply(animation, at: fraction)
    }
    for animation in finished { animation.completion?(true) }
  }

  /// Gives the marker its animated values at eased progress `fraction`: a position alone
  /// moves it (as a drag does); a rotation or an opacity changes its options (observers
  /// hear a change, and the icon extent follows the rotation).
  private func apply(_ animation: MarkerAnimation, at fraction: Double) {
    let marker = animation.marker
    if animation.movesOnlyPosition {
      if let position = animation.position(at: fraction) { marker.move(to: position) }
      return
    }
    // Every value is in its domain (the target was validated, the start is the marker's).
    try? marker.update { options in
      if let position = animation.position(at: fraction) { options.position = position }
      if let rotation = animation.rotation(at: fraction) { options.rotation = rotation }
      if let opacity = animation.opacity(at: fraction) { options.opacity = opacity }
    }
  }
}
