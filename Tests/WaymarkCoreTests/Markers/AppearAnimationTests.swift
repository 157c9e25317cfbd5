import Testing
import WaymarkTesting

@testable import WaymarkCore

/// R45: `pop` and `fade_in` play on the virtual clock from when the marker is added to a map,
/// for the policy's appear duration; whether an appearing marker can be tapped is the
/// policy's `tapAppearingMarkers`.
@Suite struct AppearAnimationTests {
  private func map(policy: BehaviorPolicy = .ios) throws -> MapView {
    let map = try MapView(camera: CameraPosition(target: Places.sydney, zoom: 10), policy: policy)
    try map.settle()
    return map
  }

  private func options(_ animation: MarkerAppearAnimation) -> MarkerOptions {
    var options = MarkerOptions(position: Places.sydney, id: "m")
    options.appearAnimation = animation
    return options
  }

  @Test("R45: an appear animation plays from the add for the policy's duration, and settle waits for it")
  func anAppearAnimationPlaysInVirtualTime() throws {
    let map = try map()
    let marker = try map.addMarker(options(.fadeIn))
    let start = try #require(map.appearance(of: marker))
    #expect(start.start == map.clock.now)
    #expect(start.opacityFactor == 0 && start.scale == 1)
    #expect(!map.isSettled, "the animation needs frames")
    try map.advance(by: 0.25)
    let half = try #require(map.appearance(of: marker))
    #expect(half.opacityFactor > 0 && half.opacityFactor < 1)
    try map.settle()
    #expect(map.appearance(of: marker) == nil)
    #expect(map.clock.now - start.start >= BehaviorPolicy.ios.appearDuration)
  }

  @Test("R45: a pop scales the icon from its ground anchor; no animation plays nothing")
  func aPopScales() throws {
    let map = try map()
    let popped = try map.addMarker(options(.pop))
    try map.advance(by: 0.1)
    let appearance = try #require(map.appearance(of: popped))
    #expect(appearance.scale > 0 && appearance.scale < 1 && appearance.opacityFactor == 1)
    var plain = options(.none)
    plain.id = "plain"
    #expect(map.appearance(of: try map.addMarker(plain)) == nil)
  }

  @Test("R45: a marker removed and added again appears again")
  func addingAgainReplays() throws {
    let map = try map()
    let marker = try map.addMarker(options(.pop))
    try map.settle()
    try map.remove(marker)
    try map.add(marker)
    #expect(map.appearance(of: marker)?.start == map.clock.now)
  }

  @Test("R45 [chosen]: an appearing marker is tappable under the presets; tapAppearingMarkers = false skips it")
  func tappingAnAppearingMarker() throws {
    let tappable = try map()
    let marker = try tappable.addMarker(options(.pop))
    let centre = try #require(tappable.iconCenter(of: marker))
    #expect(tappable.topmostMarker(at: centre) === marker)
    var policy = BehaviorPolicy.ios
    policy.tapAppearingMarkers = false
    let untappable = try map(policy: policy)
    let hidden = try untappable.addMarker(options(.fadeIn))
    #expect(untappable.topmostMarker(at: centre) == nil, "still appearing")
    try untappable.settle()
    #expect(untappable.topmostMarker(at: centre) === hidden, "once it has appeared")
  }
}
