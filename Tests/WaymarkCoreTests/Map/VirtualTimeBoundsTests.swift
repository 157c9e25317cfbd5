import Testing
@testable import WaymarkCore
import WaymarkTesting

/// Virtual time is bounded: a duration is at most ten minutes, and one `advance` or `settle`
/// runs at most ``MapView/taskLimit`` frames and timers, so `advance(1e9)` over a long
/// animation or a timer that re-arms itself ends with an error naming the bound instead of
/// running for as long as virtual time allows.
@Suite struct VirtualTimeBoundsTests {
  func map() throws -> MapView {
    let map = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 4))
    try map.settle()
    return map
  }

  @Test func everyDurationIsAtMostTenMinutesAndALongerOneIsRefusedWhole() throws {
    let map = try map()
    let marker = try map.addMarker(MarkerOptions(position: Places.sydney, id: "m"))
    let before = (map.camera, map.trace.records.count)
    let tooLong = "is more than 600 (the longest duration, ten minutes)"
    #expect(throws: MapError.invalidValue(field: "animate.duration", value: "1000000000", reason: tooLong)) {
      try map.animate(.zoomTo(8), duration: 1e9)
    }
    #expect(throws: MapError.invalidValue(field: "pan.duration", value: "600.5", reason: tooLong)) {
      try map.pan(dx: 10, dy: 0, duration: 600.5)
    }
    #expect(throws: MapError.invalidValue(field: "pinch.duration", value: "1000000000", reason: tooLong)) {
      try map.pinch(zoomBy: 1, duration: 1e9)
    }
    #expect(throws: MapError.invalidValue(field: "drag.duration", value: "1000000000", reason: tooLong)) {
      try map.drag(marker, to: Places.melbourne, duration: 1e9)
    }
    #expect(throws: MapError.invalidValue(field: "animateMarker.duration", value: "1000000000", reason: tooLong)) {
      try map.animate(marker, to: Places.melbourne, duration: 1e9)
    }
    #expect(map.camera == before.0 && map.trace.records.count == before.1, "nothing applied")
    #expect(map.isSettled)
    try map.animate(.zoomTo(5), duration: VirtualClock.longestDuration)
    try map.settle(limit: 700)
    #expect(map.camera.zoom == 5, "the longest duration settles in one call at 60 frames a second")
  }

  @Test func aTimerThatReArmsItselfAtOnceStopsAdvanceAtTheTaskLimit() throws {
    let map = try map()
    map.taskLimit = 1000
    var firings = 0
    // The timer holds the map weakly: the map's clock holds the timer, which re-arms forever.
    func rearm(_ map: MapView) {
      map.clock.schedule(at: map.clock.now) { [weak map] in
        firings += 1
        if let map { rearm(map) }
      }
    }
    rearm(map)
    do {
      try map.advance(by: 1e9)
      Issue.record("a timer re-arming at the same instant let advance end")
    } catch {
      guard case .stopped("advance", let time, let reason, let pending) = error else { throw error }
      #expect(time == map.clock.now)
      #expect(reason.contains("1000 frames and timers"), "\(error)")
      #expect(pending == "1 timer(s)")
      #expect(error.description.hasPrefix("advance: stopped at"))
    }
    #expect(firings == 1000)
    #expect(throws: MapError.self) { try map.settle() }
    #expect(firings == 2000, "settle is bounded the same way")
    try map.tap(Places.sydney)  // the map still answers
  }

  @Test func aLongAnimationStopsSettleAtTheTaskLimitAndTheMapGoesOn() throws {
    let map = try map()
    map.taskLimit = 2000
    try map.animate(.zoomTo(8), duration: 600)
    do {
      try map.settle()
      Issue.record("36,000 frames ran within a limit of 2,000")
    } catch {
      guard case .stopped("settle", let time, _, let pending) = error else { throw error }
      #expect(time < 40 && time > 30, "2,000 frames at 60 a second")
      #expect(pending.hasPrefix("camera animation"))
    }
    #expect(map.camera.zoom > 4 && map.camera.zoom < 8)
    for _ in 0..<30 { try? map.advance(by: 600) }
    #expect(map.isSettled)
    #expect(map.camera.zoom == 8, "advancing in steps finishes the animation")
  }

  @Test func aCallersInterruptionStopsBetweenTwoTasksWithItsReason() throws {
    let map = try map()
    try map.animate(.zoomTo(8), duration: 10)
    var asked = 0
    do {
      try map.settle(interruption: {
        asked += 1
        return asked > 30 ? "the caller's budget ran out" : nil
      })
      Issue.record("settle ran past its interruption")
    } catch {
      #expect(
        error
          == .stopped(
            action: "settle", time: map.clock.now, reason: "the caller's budget ran out",
            pending: "camera animation"))
    }
    #expect(asked == 31)
    #expect(map.clock.now < 1 && map.camera.zoom < 8, "stopped after 30 tasks")
    try map.settle()
    #expect(map.camera.zoom == 8)
  }

  @Test func aFullTraceStopsAdvanceAndDropsLaterRecordsCountingThem() throws {
    let trace = TraceLog()
    trace.capacity = 500
    let map = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 4), trace: trace)
    try map.settle()
    try map.animate(.zoomTo(8), duration: 600)
    do {
      try map.advance(by: 600)
      Issue.record("36,000 frames fit in a trace of 500 records")
    } catch {
      guard case .stopped("advance", _, let reason, _) = error else { throw error }
      #expect(reason == "the trace holds 500 records, the most it keeps")
    }
    #expect(trace.records.count == 500)
    try map.moveCamera(.zoomTo(3))  // still answers; its records are counted, not kept
    #expect(trace.records.count == 500 && trace.droppedCount > 0)
    trace.removeAll()
    try map.advance(by: 1)
    #expect(!trace.records.isEmpty, "room again once the records are taken")
  }
}
