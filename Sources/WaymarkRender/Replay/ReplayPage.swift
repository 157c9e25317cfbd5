import WaymarkCore

/// The HTML replay of a run: one self-contained file (inline style, scripts and data; a
/// content security policy that forbids every network request) that plays the run on
/// virtual time beside its trace.
///
/// The page draws each moment with `WaymarkDraw` (`MapDrawingScript`) from the
/// recording's keyframes and events, and offers `window.waymarkReplay`:
/// `seek(t)`, `state()` (`{ t, camera: { lat, lng, zoom, bearing, tilt }, markers: [{ id, x,
/// y }], infoWindow: null | { marker, kind, text } }` for what is drawn at that moment),
/// `play()`, `pause()`; the URL fragment `#t=3.5` opens it at 3.5 s.
public enum ReplayPage {
  /// The page for `recording`, with the run's trace `records` (each scene shows its own
  /// range of them), titled `title` (the script's name).
  public static func html(_ recording: ReplayRecording, records: [TraceRecord], title: String) -> String {
    var page = SVGBuffer(capacity: 256 << 10)
    page.raw(
      """
      <!doctype html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; \
      style-src 'unsafe-inline'; img-src data:">
      <meta name="generator" content="Waymark \(WaymarkVersion.current)">
      <title>
      """)
    page.escaped("Waymark replay: " + title)
    page.raw("</title>\n<style>\n")
    page.raw(ReplayPageStyle.source)
    page.raw("</style>\n</head>\n<body>\n<header><h1>")
    page.escaped(title)
    page.raw(
      """
      </h1><nav id="scenes" aria-label="maps"></nav>\
      <span class="hint"><kbd>Space</kbd> play <kbd>←</kbd><kbd>→</kbd> events <kbd>,</kbd><kbd>.</kbd> frames \
      <kbd>−</kbd><kbd>+</kbd> speed · click a line to go there</span></header>
      <main><section id="stage"><svg id="map" xmlns="http://www.w3.org/2000/svg" class="waymark-map" \
      role="img" aria-label="the map"></svg></section>
      <aside id="trace" aria-label="trace"><ol id="records"></ol></aside></main>
      <footer id="controls"><button id="previous" type="button" aria-label="previous event" \
      title="previous event (←)"></button><button id="play" type="button" aria-label="play" \
      title="play or pause (Space)"></button><button id="next" type="button" aria-label="next event" \
      title="next event (→)"></button><input id="scrubber" type="range" min="0" step="0.001" value="0" \
      aria-label="time"><span id="clock"></span><label>speed <select id="speed"></select></label>\
      <label title="show the did_start_tile_rendering, did_finish_tile_rendering and snapshot_ready records">\
      <input id="tiles" type="checkbox"> tile records</label></footer>
      <script type="application/json" id="waymark-replay-data">
      """)
    page.raw(scriptSafe(data(recording, records: records, title: title)))
    page.raw("</script>\n<script>\n")
    page.raw(MapDrawingScript.source)
    page.raw("</script>\n<script>\n")
    page.raw(ReplayPlayerScript.source)
    page.raw("</script>\n</body>\n</html>\n")
    return page.text
  }

  /// The page's data: palette, shared definitions, land, scenes, trace records and the names
  /// of the failures among them.
  static func data(_ recording: ReplayRecording, records: [TraceRecord], title: String) -> String {
    var json = SVGBuffer(capacity: 128 << 10)
    json.raw("{\"title\":")
    json.json(title)
    json.raw(",\"palette\":{")
    for (index, (key, value)) in [
      ("sea", Palette.sea), ("land", Palette.land), ("border", Palette.border), ("graticule", Palette.graticule),
      ("accent", Palette.accent), ("secondaryText", Palette.secondaryText), ("cityText", Palette.cityText),
      ("fontFamily", Palette.fontFamily),
    ].enumerated() {
      if index > 0 { json.byte(UInt8(ascii: ",")) }
      json.json(key)
      json.byte(UInt8(ascii: ":"))
      json.json(value)
    }
    json.raw("},\"definitions\":")
    json.json(MarkerArt.definitions)
    json.raw(",\"land\":")
    json.raw(landJSON)
    json.raw(",\"cities\":")
    json.json(NaturalEarthCities.encodedCities)
    json.raw(",\"scenes\":[")
    for (index, scene) in recording.scenes.enumerated() {
      if index > 0 { json.byte(UInt8(ascii: ",")) }
      json.raw(scene.json)
    }
    json.raw("],\"records\":[\n")
    for (index, record) in records.enumerated() {
      if index > 0 { json.raw(",\n") }
      json.raw(TraceJSON.line(record))
    }
    // The events of failures among them, by their tone: the page knows no module's records.
    var failures: [TraceEvent] = []
    for record in records where record.event.tone == .failure && !failures.contains(record.event) {
      failures.append(record.event)
    }
    json.raw("],\"failures\":")
    json.raw(TraceEvent.jsonArray(failures))
    json.raw("}")
    return json.text
  }

  /// JSON that cannot end the `<script>` element holding it: `</` becomes `<\/` and `<!`
  /// becomes `<\u0021` (the same strings to a JSON parser; `<` only occurs inside strings).
  static func scriptSafe(_ json: String) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(json.utf8.count + 64)
    var previous: UInt8 = 0
    for byte in json.utf8 {
      if previous == UInt8(ascii: "<") {
        if byte == UInt8(ascii: "/") {
          out.append(UInt8(ascii: "\\"))
        } else if byte == UInt8(ascii: "!") {
          out.append(contentsOf: Array("\\u0021".utf8))
          previous = byte
          continue
        }
      }
      out.append(byte)
      previous = byte
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// The land as one JSON string (without the line breaks of its Swift source).
  static let landJSON: String = {
    var json = SVGBuffer(capacity: 48 << 10)
    json.json(NaturalEarthLand.encodedRings.filter { $0 != "\n" })
    return json.text
  }()
}
