import Testing
import WaymarkCore
import WaymarkTesting

/// R20: every value the map reports lies in its range, in the trace too: rounding for the
/// trace keeps every invariant.
@Suite struct TraceRoundingTests {
  private func cameraLine(_ camera: CameraPosition) -> (json: String, text: String) {
    var record = TraceRecord(time: 1, event: .callback(.didChangeCameraPosition))
    record.camera = camera
    return (TraceJSON.line(record), TraceText.describe(record))
  }

  /// Rounding scaled 1e308 past the largest double: the JSON trace wrote `"zoom":inf`, which
  /// is not JSON (found by `scripts/fuzz.sh trace`).
  @Test func aHugeNumberPrintsAsItselfAndTheLineReadsBack() throws {
    var record = TraceRecord(time: 1, event: .callback(.didChangeCameraPosition))
    record.camera = CameraPosition(target: Places.sydney, zoom: 1e308)
    let line = TraceJSON.line(record)
    #expect(line.contains(#""zoom":1e+308,"#), "\(line)")
    #expect(try TraceJSONReader.records(from: line).first?.camera?.zoom == 1e308)
    #expect(formatNumber(-1.5e300, decimals: 6) == "-1.5e+300")
  }

  @Test("R20: A bearing just under 360 prints as 0 in both traces")
  func aBearingJustUnder360PrintsAs0() {
    let camera = CameraPosition(target: Places.sydney, zoom: 8, bearing: 359.99999999999994)
    #expect(camera.clamped(minZoom: 2, maxZoom: 21).bearing == 359.99999999999994, "the map keeps it as it is")
    let (json, text) = cameraLine(camera)
    #expect(json.contains(#""bearing":0,"#))
    #expect(text.contains("bearing 0 "))
    #expect(cameraLine(CameraPosition(target: Places.sydney, zoom: 8, bearing: 359.996)).text.contains("bearing 0 "))
    #expect(
      cameraLine(CameraPosition(target: Places.sydney, zoom: 8, bearing: 359.994)).text.contains("bearing 359.99 "))
  }

  @Test("R20: A longitude just under 180 prints as -180")
  func aLongitudeJustUnder180PrintsAsMinus180() {
    let target = Coordinate(latitude: 10, longitude: 179.99999999)
    let (json, text) = cameraLine(CameraPosition(target: target, zoom: 3))
    #expect(json.contains(#""lng":-180,"#))
    #expect(text.contains("(10, -180)"))
    var tap = TraceRecord(time: 0, event: .callback(.didTapAtCoordinate))
    tap.coordinate = target
    #expect(TraceJSON.line(tap).contains(#""lng":-180}"#))
    #expect(TraceText.describe(tap).contains("(10, -180)"))
    let west = Coordinate(latitude: 10, longitude: -180.0000000001 + 360)
    #expect(
      TraceJSON.line(
        {
          var r = tap; r.coordinate = west; return r
        }()
      ).contains(#""lng":-180}"#))
  }

  @Test("R22: A tilt at a zoom's maximum never prints above it")
  func aTiltAtTheMaximumNeverPrintsAboveIt() {
    let zoom = 13.0001
    let maximum = CameraPosition.maximumTilt(atZoom: zoom)  // 47.50058333...
    let camera = CameraPosition(target: Places.sydney, zoom: zoom, tilt: maximum)
    let shown = camera.rounded(targetDecimals: 6, zoomDecimals: 4, angleDecimals: 2)
    #expect(shown.tilt <= maximum && shown.tilt == 47.5)
    let traced = camera.rounded(targetDecimals: 6, zoomDecimals: 6, angleDecimals: 6)
    #expect(traced.tilt <= maximum)
  }

  @Test("R20: Rounding inside the range is ordinary rounding")
  func roundingInsideTheRangeIsOrdinary() {
    let camera = CameraPosition(
      target: Coordinate(latitude: -37.8196901, longitude: 144.9660849), zoom: 8.12345678, bearing: 50.0000001,
      tilt: 12.3456789)
    let (json, _) = cameraLine(camera)
    #expect(
      json.contains(#""camera":{"lat":-37.81969,"lng":144.966085,"zoom":8.123457,"bearing":50,"tilt":12.345679}"#))
  }
}
