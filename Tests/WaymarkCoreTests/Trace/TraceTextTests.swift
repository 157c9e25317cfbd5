import Testing
import WaymarkCore

@Suite struct TraceTextTests {
  @Test func linesAreAlignedAndFramesFolded() throws {
    let map = try MapView(camera: CameraPosition(target: Places.melbourne, zoom: 4))
    let m = try map.addMarker(MarkerOptions(position: Places.melbourne, id: "melbourne"))
    try map.tap(m)
    try map.settle()
    let lines = TraceText().lines(map.trace.records)
    #expect(lines[0] == "       t  event                        subject      details")
    #expect(lines[1] == "   0.000  did_tap_marker               melbourne    result=false")
    let frames = try #require(lines.first { $0.contains("did_change_camera_position") })
    // The run of frames is cut where the tiles finish loading at 0.25 s (R31).
    #expect(frames.hasSuffix("×14 frames   0.017…0.233 → (-37.81969, 144.966085) zoom 4 bearing 0 tilt 0"))
    let counts = lines.compactMap { line in
      line.split(separator: "×").dropFirst().first.flatMap { Int($0.prefix { $0.isNumber }) }
    }
    #expect(counts == [14, 4])
    let all = TraceText(showsEveryFrame: true).lines(map.trace.records)
    #expect(all.filter { $0.contains("did_change_camera_position") }.count == 18)
  }
}
