import Foundation
import Testing
import WaymarkCore

@testable import WaymarkScripting

/// The rest of Google's map as a script writes it (issue 35).
@Suite struct GoogleMapScriptTests {
  /// Runs `script` and expects it to end without an error or a failed expectation.
  private func expectPasses(_ script: String) throws {
    let (outcome, _) = try ScriptRunnerTests().run(script)
    #expect(outcome.error == nil, "\(outcome.error ?? "")")
    #expect(outcome.failures.isEmpty, "\(outcome.failures)")
  }

  @Test("R52: map.my_location is nil while my location is off; map.device_location is the input")
  func myLocationIsWhatTheMapReports() throws {
    // GMSMapView.myLocation: "If it is disabled, or it is enabled but no location data is
    // available, this will be nil."
    try expectPasses(
      """
      local map = waymark.map{ camera = { target = { lat = -33.8683, lng = 151.2086 }, zoom = 12 } }
      expect_eq(map.my_location, nil, "unknown")
      map.device_location = { lat = -33.8915, lng = 151.2767 }
      expect_eq(map.my_location, nil, "off: nil although the device knows where it is")
      expect_near(map.device_location.lat, -33.8915, 1e-9)
      map.my_location_enabled = true
      expect_near(map.my_location.lng, 151.2767, 1e-9, "on: the device location")
      map.my_location = { lat = -33.9, lng = 151.2 }
      expect_near(map.device_location.lat, -33.9, 1e-9, "assigning my_location sets the device location")
      map.my_location_enabled = false
      expect_eq(map.my_location, nil)
      map.device_location = nil
      map.my_location_enabled = true
      expect_eq(map.my_location, nil, "on, but no location data")
      """)
  }
}
