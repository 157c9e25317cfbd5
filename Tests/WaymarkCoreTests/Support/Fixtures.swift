import Foundation
import Testing
import WaymarkCore
import WaymarkTesting

func expectClose(
  _ a: Double, _ b: Double, tolerance: Double = 1e-6, _ comment: Comment? = nil,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  #expect(
    abs(a - b) <= tolerance, "\(a) is not within \(tolerance) of \(b) \(comment?.description ?? "")",
    sourceLocation: sourceLocation)
}

func expectClose(
  _ a: Coordinate, _ b: Coordinate, tolerance: Double = 1e-6, sourceLocation: SourceLocation = #_sourceLocation
) {
  #expect(
    abs(a.latitude - b.latitude) <= tolerance && abs(Coordinate.wrapLongitude(a.longitude - b.longitude)) <= tolerance,
    "\(a) is not within \(tolerance) of \(b)", sourceLocation: sourceLocation)
}
