import Testing

@testable import WaymarkCore
import WaymarkTesting

/// The selection on its own: the R13 deferral is a small state machine.
@Suite struct SelectionStateTests {
  @Test("R13: changes wait only while a window is resolved, and come back in order")
  func deferral() {
    var state = SelectionState()
    var order: [Int] = []
    #expect(!state.deferIfResolving { order.append(0) }, "nothing is being resolved: the change runs now")
    state.beginResolution()
    #expect(state.deferIfResolving { order.append(1) })
    #expect(state.deferIfResolving { order.append(2) })
    #expect(state.checkInvariants() == nil)
    let waiting = state.endResolution()
    #expect(!state.isResolving)
    for change in waiting { change() }
    #expect(order == [1, 2])
    #expect(state.endResolution().isEmpty, "each change is handed back once")
  }

  @Test("R9: a marker's window belongs to the selected marker")
  func windowBelongsToTheSelection() throws {
    let f = try MapFixture()
    let sydney = try f.marker("sydney", at: Places.sydney, title: "Sydney")
    let melbourne = try f.marker("melbourne", at: Places.melbourne, title: "Melbourne")
    var state = SelectionState()
    let layout = try #require(InfoWindowLayout.defaultWindow(title: "Sydney", snippet: nil))
    state.infoWindow = InfoWindow(marker: sydney, pointOfInterest: nil, content: nil, layout: layout)
    state.selectedMarker = melbourne
    #expect(state.checkInvariants()?.contains("window of sydney") == true)
    state.selectedMarker = sydney
    #expect(state.checkInvariants() == nil)
  }
}
