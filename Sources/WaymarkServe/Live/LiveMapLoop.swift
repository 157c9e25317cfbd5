import Foundation
import WaymarkCore
import WaymarkScenarios
import WaymarkScripting

/// The live map's own thread: the only thread that touches the session, its map and its
/// Lua states. Requests hand it jobs and wait for the answer; between jobs it moves the
/// virtual clock with the wall clock, polls plugin files for hot reload, and streams every
/// trace record to the event streams without ever waiting for one.
final class LiveMapLoop: @unchecked Sendable {
  /// How often plugin files are checked for changes, in seconds.
  static let reloadInterval = 0.25
  /// Events kept for clients that reconnect (`Last-Event-ID`) or ask from the start.
  static let historyLimit = 4096
  /// Bytes of kept events, at most: half a client's queue, so that what a client asks for
  /// always fits in its queue, with room left for the events that follow.
  let historyBytes: Int

  private let condition = NSCondition()
  private var jobs: [(LiveSession) -> Void] = []
  private var isStopping = false
  private let finished = DispatchSemaphore(value: 0)

  /// The map thread's own: owned by it from the session's start, checked in debug builds.
  private let own = ThreadBound(MapThreadState())
  /// Why the recorded test file (`--record`) could not be written, the last time it could
  /// not; read once the loop has stopped.
  private(set) var recordingFailure: String?

  /// Starts the thread and runs `script` on it; returns once the map is built. Throws when
  /// the script could not start. Clients' queues hold `streamCapacity` bytes.
  init(script: String, options: ScriptOptions, streamCapacity: Int) throws(LiveSessionError) {
    historyBytes = streamCapacity / 2
    let started = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var failure: LiveSessionError?
    let thread = Thread { [self] in
      do throws(LiveSessionError) {
        own.value.session = try LiveSession(script: script, options: options)
      } catch {
        failure = error
      }
      started.signal()
      if own.value.session != nil { run() }
      finished.signal()
    }
    thread.name = "waymark map"
    thread.stackSize = 16 << 20  // Lua and deep content layouts
    thread.start()
    started.wait()
    if let failure { throw failure }
  }

  /// Runs `body` on the map's thread and returns its answer; nil once the loop stopped.
  func sync<Answer: Sendable>(_ body: @escaping (LiveSession, LiveMapLoop) -> Answer) -> Answer? {
    let done = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var answer: Answer?
    condition.lock()
    guard !isStopping else {
      condition.unlock()
      return nil
    }
    jobs.append { [self] session in
      answer = body(session, self)
      done.signal()
    }
    condition.signal()
    condition.unlock()
    done.wait()
    return answer
  }

  /// Stops the loop after the jobs already queued, closes every event stream, retires the map
  /// (its plugins' `teardown` runs) and closes the script's state. Idempotent.
  func stop() {
    condition.lock()
    let wasStopping = isStopping
    isStopping = true
    condition.signal()
    condition.unlock()
    if !wasStopping { finished.wait() }
  }

  // MARK: The map's thread

  private func run() {
    guard let session = own.value.session else { return }
    publish(session.takeRecords())
    while true {
      condition.lock()
      while jobs.isEmpty && !isStopping {
        if !condition.wait(until: Date(timeIntervalSinceNow: wait(session))) { break }
      }
      let batch = jobs
      jobs.removeAll()
      let stopping = isStopping
      condition.unlock()
      tick(session, checkingPlugins: !batch.isEmpty)
      for job in batch { job(session) }
      if stopping { break }
    }
    publish(session.takeRecords())
    saveRecording(session)
    for stream in own.value.streams { stream.close() }
    own.value.streams.removeAll()
    session.close()
    own.value.session = nil
  }

  /// Monotonic seconds.
  private static var now: Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

  /// Seconds until the loop must wake: the next frame or timer while playing, else the next
  /// plugin check.
  private func wait(_ session: LiveSession) -> Double {
    let now = Self.now
    var wake = own.value.nextReloadCheck
    if let clock = session.map?.clock, let next = clock.nextTaskTime,
      let delay = own.value.pacer.wallDelay(untilVirtual: next - clock.now)
    {
      wake = min(wake, now + max(delay, 0.001))
    }
    return max(wake - now, 0)
  }

  /// Moves virtual time with the wall clock, reloads changed plugins when due (and always
  /// before requests, so that an input right after an edit meets the new version), and
  /// streams what that made.
  private func tick(_ session: LiveSession, checkingPlugins: Bool) {
    let now = Self.now
    let due = own.value.pacer.due(at: now)
    if due > 0 { try? session.advance(by: due) }  // finite, positive, small: never refused
    if checkingPlugins || now >= own.value.nextReloadCheck {
      session.reloadChangedPlugins()
      own.value.nextReloadCheck = now + Self.reloadInterval
    }
    publish(session.takeRecords())
  }

  // MARK: Jobs' tools (map thread)

  /// Writes the recorded test file (`--record`) as it stands now, if inputs are recorded.
  func saveRecording(_ session: LiveSession) {
    do {
      try session.writeRecording()
      recordingFailure = nil
    } catch {
      recordingFailure = error.description
    }
  }

  /// Changes the live clock.
  func setClock(paused: Bool?, speed: Double?) {
    if let paused { own.value.pacer.isPaused = paused }
    if let speed {
      own.value.pacer.speed = min(max(speed, WallClockPacer.speeds.lowerBound), WallClockPacer.speeds.upperBound)
    }
  }

  /// The live clock's settings.
  var clock: ClockState { own.value.pacer.state }

  /// Streams records to every client as Server-Sent Events (`id:` and one `data:` line of
  /// `--trace json` each) and keeps them for reconnecting clients. A client whose queue is
  /// full is dropped with a last `dropped` event; nobody is waited for.
  func publish(_ records: [TraceRecord]) {
    guard !records.isEmpty else { return }
    var batch: [UInt8] = []
    for record in records {
      let event = Array("id: \(own.value.nextEventID)\ndata: \(TraceJSON.line(record))\n\n".utf8)
      own.value.history.append((own.value.nextEventID, event))
      own.value.heldHistoryBytes += event.count
      own.value.nextEventID += 1
      batch += event
    }
    own.value.trimHistory(toBytes: historyBytes)
    own.value.streams.removeAll { stream in
      if stream.offer(batch) { return false }
      stream.close(last: Self.droppedEvent)
      return true
    }
  }

  /// Adds a client, first sending it the kept events after `lastEventID` (all kept events
  /// for 0; none for nil). When some of the events it asks for are no longer kept, a
  /// `missed` event saying how many comes first.
  func subscribe(_ stream: EventStream, after lastEventID: Int?) {
    own.value.streams.removeAll { !$0.isOpen }
    if let lastEventID {
      let kept = own.value.history[own.value.historyStart...].drop { $0.id <= lastEventID }
      let missing = (kept.first?.id ?? own.value.nextEventID) - lastEventID - 1
      let bytes = (missing > 0 ? Self.missedEvent(missing) : []) + kept.flatMap(\.bytes)
      if !bytes.isEmpty, !stream.offer(bytes) {
        stream.close(last: Self.droppedEvent)
        return
      }
    }
    own.value.streams.append(stream)
  }

  /// Tells a client that `count` events it asked for are no longer kept (the most recent
  /// kept ones follow). It has no `id`: the client's `Last-Event-ID` stays its last record.
  static func missedEvent(_ count: Int) -> [UInt8] {
    let s = count == 1 ? "" : "s"
    return Array(
      ("event: missed\ndata: {\"count\":\(count),\"message\":\"\(count) earlier trace record\(s) no longer kept "
        + "on the server; the most recent ones follow\"}\n\n").utf8)
  }

  /// The last event of a client that fell behind; its browser reconnects and resumes.
  static let droppedEvent = Array(
    "event: dropped\ndata: {\"message\":\"this client fell behind the trace and was dropped; reconnecting resumes from the last event received\"}\n\n"
      .utf8)
}

/// What only the map's thread of a ``LiveMapLoop`` touches: the session, the live clock, the
/// event streams and the kept history.
private struct MapThreadState {
  var session: LiveSession?
  var pacer = WallClockPacer()
  var streams: [EventStream] = []
  var history: [(id: Int, bytes: [UInt8])] = []
  var historyStart = 0
  var heldHistoryBytes = 0
  var nextEventID = 1
  var nextReloadCheck = 0.0

  /// Forgets the oldest kept events past ``LiveMapLoop/historyLimit`` events or `limit` bytes.
  mutating func trimHistory(toBytes limit: Int) {
    while history.count - historyStart > LiveMapLoop.historyLimit || heldHistoryBytes > limit {
      heldHistoryBytes -= history[historyStart].bytes.count
      historyStart += 1
    }
    if historyStart > LiveMapLoop.historyLimit {
      history.removeFirst(historyStart)
      historyStart = 0
    }
  }
}
