import Testing
import WaymarkCore

/// "Did you mean ...?" must not mislead: a typo is one edit, a wrong word shares words, and
/// a name close in letters only (title, tilt) gets no suggestion.
@Suite struct SuggestionTests {
  static let map = [
    "camera", "selected_marker", "info_window", "time", "min_zoom", "max_zoom", "size", "tilt", "animate",
    "move_camera", "set_min_max_zoom", "add_marker", "remove_marker", "marker", "markers", "animate_marker",
  ]

  @Test(arguments: [
    ("animate_camera", "animate"),  // the key's first word, not animate_marker (one word shared too)
    ("add_markr", "add_marker"),  // one edit
    ("styel", "style"),  // a swap counts as one edit
    ("remove", "remove_marker"),  // the key is a part of one candidate only
    ("latitude", "lat"),  // an abbreviation
  ])
  func suggestsWhatWasMeant(key: String, expected: String) {
    #expect(Suggestion.closest(to: key, among: Self.map + ["style", "lat", "lng"]) == expected)
  }

  @Test(arguments: ["title", "set_zoom", "zoom", "position"])
  func suggestsNothingMisleading(key: String) {
    // title is not tilt; set_zoom is not set_min_max_zoom; zoom is min_zoom or max_zoom alike.
    #expect(Suggestion.closest(to: key, among: Self.map) == nil)
  }
}
