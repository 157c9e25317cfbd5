extension MapView {
  // MARK: Live views (R34-R37)

  /// Makes `view` the live icon view of `marker` (R36), nil for none: from the next frame on,
  /// while the marker tracks view changes, what `view` reads becomes the marker's icon view
  /// (drawing, hit box, `iconView`). The marker's icon view should already be what `view`
  /// reads now. A marker that leaves the map loses its live view at the next frame.
  public func setLiveIconView(_ view: LiveView<MarkerIconView>?, of marker: Marker) throws(MapError) {
    guard marker.isOn(self) else { throw .notOnThisMap(what: "marker \(marker.id)") }
    liveViews.setIconView(view, of: marker)
  }

  /// The live icon view of `marker`, if it has one (R36).
  package func liveIconView(of marker: Marker) -> LiveView<MarkerIconView>? { liveViews.iconView(of: marker) }

  /// Draws the frames due by `time` (R34, R36): every tracked live view is read once for all
  /// of them and its new value, if any, drawn. Called whenever time is about to move on (before
  /// each task of the clock, at the end of `advance`): what a view shows between two steps of
  /// time is what every frame between them draws.
  func drawFrames(through time: Double) {
    let frame = Self.frameNumber(at: time, rate: policy.frameRate)
    let frames = frame - liveViews.lastFrame
    guard frames > 0 else { return }
    liveViews.lastFrame = frame
    redrawLiveViews(frames: frames)
  }

  /// The number of the last frame at or before `time`: frames fall on multiples of 1 / `rate`.
  static func frameNumber(at time: Double, rate: Double) -> Int {
    Int((time * rate + 1e-9).rounded(.down))
  }

  /// At the end of `settle`: if a tracked live view reads differently from what is drawn, the
  /// next frame is owed to it, so time moves on to that frame (less than a frame later) and it
  /// is drawn there (R34). Nothing else waits then: drawing makes no callback.
  func drawOwedFrame() {
    guard liveViewChanged() else { return }
    let next = Double(Self.frameNumber(at: clock.now, rate: policy.frameRate) + 1) / policy.frameRate
    clock.advance(to: next)
    drawFrames(through: next)
  }

  /// Whether a tracked live view reads differently from what is drawn (a read that fails
  /// counts as unchanged: the last drawing stays).
  private func liveViewChanged() -> Bool {
    if let window = infoWindow, let view = window.view, window.marker?.tracksInfoWindowChanges == true,
      let content = try? view.read(frames: 0), content != window.content
    {
      return true
    }
    for entry in liveViews.iconViews where entry.marker.isOn(self) && entry.marker.tracksViewChanges {
      if let value = try? entry.view.read(frames: 0), value != entry.marker.iconView { return true }
    }
    return false
  }

  private func redrawLiveViews(frames: Int) {
    if let window = infoWindow, let view = window.view, window.marker?.tracksInfoWindowChanges == true {
      redraw(window, from: view, frames: frames)
    }
    if !liveViews.isEmpty { redrawIconViews(frames: frames) }
  }

  /// Called after a marker's options changed: a window or an icon view whose tracking turned
  /// on is redrawn at once (Google guarantees it by the next frame: R34, R36).
  func trackingDidChange(of marker: Marker, from old: MarkerOptions) {
    if !old.tracksInfoWindowChanges && marker.tracksInfoWindowChanges, let window = infoWindow,
      window.marker === marker
    {
      if let view = window.view {
        redraw(window, from: view, frames: 1)
      } else if window.kind == .default {
        refreshDefaultWindow(of: marker)
      }
    }
    if !old.tracksViewChanges && marker.tracksViewChanges, liveViews.iconView(of: marker) != nil {
      redrawIconViews(frames: 1, only: marker)
    }
  }

  /// Reads the shown window's live view and, if its content changed, lays the window out again
  /// as its kind is laid out (R34, R35): `view_redrawn` records it.
  private func redraw(_ window: InfoWindow, from view: LiveView<InfoWindowContent>, frames: Int) {
    guard let marker = window.marker else { return }
    let content: InfoWindowContent
    do {
      guard let read = try view.read(frames: frames) else { return }
      content = read
      liveViews.windowProblem = nil
    } catch {
      let problem = "\(error)"
      if liveViews.windowProblem != problem {
        warn("info window of marker \(marker.id): \(problem); it keeps its last drawing (R34)")
      }
      liveViews.windowProblem = problem
      return
    }
    guard content != window.content else { return }
    let layout: InfoWindowLayout = window.kind == .window ? .window(content) : .contents(content)
    if layout.isCut { warnCut(layout, of: marker) }
    infoWindow = InfoWindow(marker: marker, pointOfInterest: nil, content: content, layout: layout, view: view)
    note(.viewRedrawn) { record in
      record.marker = marker.id
      record.extra.append(TraceField("view", .string("info_window")))
    }
  }

  /// Warns that a custom window taller than its largest side was cut (R35).
  func warnCut(_ layout: InfoWindowLayout, of marker: Marker) {
    warn(
      "marker_info_window of marker \(marker.id): the window is \(formatNumber(layout.content.frame.height)) points high;"
        + " a custom window is at most \(formatNumber(InfoWindowMetrics.standard.maxCustomWindowSide)) points on either"
        + " side, so it is cut there (R35)")
  }

  /// Reads the tracked live icon views (only `marker`'s when given) and applies those that
  /// changed (R36); drops those whose marker left the map or whose view is gone.
  private func redrawIconViews(frames: Int, only marker: Marker? = nil) {
    // Read from a copy: applying a value tells the map (and its observers) of the change.
    var kept: [LiveViewRegistry.IconView] = []
    for var entry in liveViews.iconViews {
      guard entry.marker.isOn(self) else { continue }
      if (marker == nil || entry.marker === marker) && entry.marker.tracksViewChanges {
        guard redraw(&entry, frames: frames) else { continue }
      }
      kept.append(entry)
    }
    liveViews.iconViews = kept
  }

  /// Reads one live icon view and applies its value if it changed; false if the view is gone.
  private func redraw(_ entry: inout LiveViewRegistry.IconView, frames: Int) -> Bool {
    let marker = entry.marker
    do {
      guard let value = try entry.view.read(frames: frames) else { return false }
      if value != marker.iconView {
        try marker.update { $0.iconView = value }
        note(.viewRedrawn) { record in
          record.marker = marker.id
          record.extra.append(TraceField("view", .string("icon_view")))
        }
      }
      entry.lastProblem = nil
    } catch {
      let problem = "\(error)"
      if entry.lastProblem != problem {
        warn("icon view of marker \(marker.id): \(problem); it keeps its last drawing (R36)")
      }
      entry.lastProblem = problem
    }
    return true
  }
}
