extension MapView {
  // MARK: Selection (R10-R13)

  /// The selected marker, whose window (if any) is shown (R9-R13). Assigning selects from
  /// code (R11): the window is resolved and shown (R7) with no did_tap_marker and, by
  /// default, no camera move; nil deselects (did_close_info_window fires if a window was
  /// shown); a marker not on this map is ignored with a warning. While a window is being
  /// resolved, the change waits until the resolution ends (R13).
  public var selectedMarker: Marker? {
    get { selection.selectedMarker }
    set { selectFromCode(newValue) }
  }

  /// Makes `marker` the selected one, as it is (no callback, no window).
  private func setSelection(_ marker: Marker?) {
    let old = selection.selectedMarker
    selection.selectedMarker = marker
    if marker !== old { notify(.selectionChanged) }
  }

  /// The shown info window, if any (R9: at most one).
  public internal(set) var infoWindow: InfoWindow? {
    get { selection.infoWindow }
    set {
      let hadWindow = selection.infoWindow != nil
      selection.infoWindow = newValue
      if newValue != nil || hadWindow { notify(.selectionChanged) }
    }
  }

  /// Selects a marker from code (R11): see ``selectedMarker``.
  private func selectFromCode(_ marker: Marker?) {
    let name = marker.map { "selected_marker = \($0.id)" } ?? "selected_marker = nil"
    if deferIfResolving(name, { [weak self] in self?.selectFromCode(marker) }) { return }
    guard let marker else {
      deselect()
      return
    }
    guard marker.isOn(self) else {
      warn("selected_marker: marker \(marker.id) is not on this map; ignored (R11)")
      return
    }
    if marker === selectedMarker { return }
    deselect()
    guard marker.isOn(self) else { return }
    select(marker)
    if policy.centerOnProgrammaticSelect, selectedMarker === marker { centerCamera(on: marker) }
  }

  /// Runs `change` later if an info window is being resolved (R13); true if deferred.
  func deferIfResolving(_ description: String, _ change: @escaping () -> Void) -> Bool {
    guard selection.deferIfResolving(change) else { return false }
    note(.deferred) { $0.message = "\(description) waits until the info window is resolved (R13)" }
    return true
  }

  /// Makes `marker` the selected marker and shows the window R7 resolves for it.
  func select(_ marker: Marker) {
    selection.beginResolution()
    let window = resolveInfoWindow(for: marker)
    let changes = selection.endResolution()
    if let window {
      setSelection(marker)
      show(window)
    } else if policy.selectMarkerWithoutWindow {
      setSelection(marker)
    }
    for change in changes { change() }
  }

  /// Info-window resolution (R7): marker_info_window, else marker_info_contents, else the
  /// default window from title and snippet (none if both are blank or nil).
  private func resolveInfoWindow(for marker: Marker) -> InfoWindow? {
    if let content = emit(.markerInfoWindow(marker)).content {
      let layout = InfoWindowLayout.window(content)
      if layout.isCut { warnCut(layout, of: marker) }
      return InfoWindow(
        marker: marker, pointOfInterest: nil, content: content, layout: layout, view: liveView(of: content))
    }
    if let content = emit(.markerInfoContents(marker)).content {
      return InfoWindow(
        marker: marker, pointOfInterest: nil, content: content, layout: .contents(content),
        view: liveView(of: content))
    }
    return InfoWindow.defaultWindow(of: marker, reusing: &selection.spareWindow)
  }

  /// The live view the delegate tells for the content it just answered (R34), if any.
  private func liveView(of content: InfoWindowContent) -> LiveView<InfoWindowContent>? {
    callbacks.delegate?.mapView(self, liveViewOf: content)
  }

  /// Shows a window (hiding any other first: R9).
  func show(_ window: InfoWindow) {
    hideInfoWindow()
    infoWindow = window
    note(.infoWindowShown) { record in
      record.marker = window.marker?.id
      record.extra.append(TraceField("kind", .string(window.kindName)))
      if let poi = window.pointOfInterest { record.extra.append(TraceField("place_id", .string(poi.placeID))) }
    }
  }

  /// Hides the shown window, if any, and fires did_close_info_window for its marker.
  func hideInfoWindow() {
    // Taken out, not copied: the window stays uniquely held unless someone else holds it.
    guard var window = selection.infoWindow.take() else { return }
    notify(.selectionChanged)
    note(.infoWindowHidden) { record in
      record.marker = window.marker?.id
      if let poi = window.pointOfInterest { record.extra.append(TraceField("place_id", .string(poi.placeID))) }
    }
    if let marker = window.marker {
      emit(.didCloseInfoWindow(marker))
    }
    if window.recycle() { selection.spareWindow = window }
  }

  /// Deselects the selected marker, closing its window if one is shown (R10.1, R12, R14).
  /// The selection is cleared before did_close_info_window, so a handler that selects another
  /// marker leaves that one selected with its window.
  func deselect() {
    setSelection(nil)
    hideInfoWindow()
  }

  /// Lays out the default window again after the title or snippet of its marker, which
  /// tracks info window changes, changed (R7). A window that became blank closes
  /// (did_close_info_window) and the marker stays selected (R8).
  func refreshDefaultWindow(of marker: Marker) {
    guard let layout = InfoWindowLayout.defaultWindow(title: marker.title, snippet: marker.snippet) else {
      hideInfoWindow()
      return
    }
    infoWindow = InfoWindow(marker: marker, pointOfInterest: nil, content: nil, layout: layout)
  }
}
