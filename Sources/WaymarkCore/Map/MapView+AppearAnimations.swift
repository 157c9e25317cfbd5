extension MapView {
  // MARK: Appear animations (R45)

  /// Starts `marker`'s appear animation, if it has one: it was just added to this map. It
  /// plays for the policy's ``BehaviorPolicy/appearDuration`` on the frames, so that
  /// `settle` waits for it.
  func startAppearing(_ marker: Marker) {
    guard marker.appearAnimation != .none, policy.appearDuration > 0 else { return }
    cameraController.appearing[ObjectIdentifier(marker)] = (marker, clock.now)
    scheduleFrame()
  }

  /// Forgets the appear animations that have played, and those of markers no longer here.
  func stepAppearing(at now: Double) {
    guard !cameraController.appearing.isEmpty else { return }
    let duration = policy.appearDuration
    cameraController.appearing = cameraController.appearing.filter { _, entry in
      entry.marker.isOn(self) && now < entry.start + duration
    }
  }

  /// How far `marker`'s appear animation has played now, or nil when none is playing.
  package func appearance(of marker: Marker) -> MarkerAppearance? {
    guard !cameraController.appearing.isEmpty, let entry = cameraController.appearing[ObjectIdentifier(marker)]
    else { return nil }
    return MarkerAppearance(
      marker.appearAnimation, start: entry.start, duration: policy.appearDuration, now: clock.now)
  }

  /// Whether taps skip `marker` because it is appearing: nil when none is skipped (the
  /// policy lets appearing markers be tapped, or none is appearing).
  var appearingMarkerFilter: ((Marker) -> Bool)? {
    guard !policy.tapAppearingMarkers, !cameraController.appearing.isEmpty else { return nil }
    return { [unowned self] marker in self.appearance(of: marker) != nil }
  }
}
