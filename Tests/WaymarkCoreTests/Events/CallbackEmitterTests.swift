import Testing

@testable import WaymarkCore
import WaymarkTesting

/// The callback emitter: running callbacks, records and who decided.
@Suite struct CallbackEmitterTests {
  @Test("A veto's record gets its result and who decided; input is refused while it runs")
  func booksOfOneCallback() throws {
    let f = try MapFixture()
    let sydney = try f.marker("sydney", at: Places.sydney)
    var emitter = CallbackEmitter(trace: TraceLog())
    let index = try #require(emitter.record(.didTapMarker(sydney), at: 2))
    #expect(emitter.trace.records[index].answerer == .null && emitter.trace.records[index].result == nil)
    emitter.begin(.didTapMarker)
    #expect(throws: MapError.reentrantInput(action: "tap", callback: "did_tap_marker")) {
      try emitter.requireNoCallbackRunning("tap")
    }
    #expect(emitter.checkInvariants() != nil)
    emitter.end()
    emitter.recordAnswer(at: index, of: .didTapMarker, answer: CallbackAnswer(handled: true, decidedBy: "p"))
    #expect(emitter.trace.records[index].result == .bool(true) && emitter.trace.records[index].answerer == .string("p"))
    #expect(emitter.checkInvariants() == nil)
  }

  @Test("Notifications get no result; an observer added twice hears once")
  func notificationsAndObservers() throws {
    var emitter = CallbackEmitter(trace: TraceLog())
    let index = try #require(emitter.record(.willMove(gesture: true), at: 0))
    emitter.recordAnswer(at: index, of: .willMove, answer: .none)
    #expect(emitter.trace.records[index].result == nil && emitter.trace.records[index].answerer == nil)
    final class Watcher: MapObserver { func mapView(_ mapView: MapView, didChange change: MapChange) {} }
    let watcher = Watcher()
    emitter.addObserver(watcher)
    emitter.addObserver(watcher)
    #expect(emitter.observers.count == 1)
    emitter.removeObserver(watcher)
    #expect(emitter.observers.isEmpty)
  }
}
