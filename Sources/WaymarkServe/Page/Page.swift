/// The page's built-in assets: everything the browser gets is in this binary (no file is
/// ever read for a request), and the page loads nothing from anywhere else.
enum Page {
  /// The page's Content-Security-Policy: only its own script (by a nonce fresh for each
  /// response, so markup a plugin managed to smuggle into the picture could not run a
  /// script), inline style, requests to its own origin, no frames, forms or plugins.
  static func securityPolicy(nonce: String) -> (name: String, value: String) {
    (
      "Content-Security-Policy",
      "default-src 'none'; script-src 'nonce-\(nonce)'; style-src 'unsafe-inline'; img-src data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    )
  }

  /// What a bare `GET /` (no token) shows: where to find the address with the token.
  static let withoutToken = """
    <!doctype html>
    <html lang="en"><head><meta charset="utf-8"><title>waymark serve</title></head>
    <body style="font: 15px system-ui, sans-serif; margin: 3em; max-width: 40em">
    <h1>waymark serve</h1>
    <p>This page needs the token that <code>waymark serve</code> printed when it started:
    open the whole address it printed, <code>http://127.0.0.1:PORT/?token=…</code>.</p>
    <p>The token keeps other pages in your browser from reading or driving the map.</p>
    </body></html>
    """

  /// The live page, its script allowed by `nonce`.
  static func html(nonce: String) -> String {
    """
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>waymark serve</title>
    <style>
    \(PageStyle.source)
    </style>
    </head>
    <body>
    <header>
      <h1>waymark serve</h1>
      <span id="clock" title="virtual time">t = 0.000 s</span>
      <button id="pause" type="button" title="pause or play the virtual clock">pause</button>
      <button id="step" type="button" title="advance 0.1 s of virtual time">step 0.1 s</button>
      <label>speed <select id="speed" title="virtual seconds per second"></select></label>
      <span id="status" role="status"></span>
    </header>
    <main>
      <section id="stage">
        <div id="map" aria-label="the live map"><button id="my-location" type="button"
          title="the my-location button">my location</button></div>
        <p class="hint">click: tap · hold: long press · hold a draggable marker, then move: drag ·
        drag: pan · shift-drag: rotate · alt-drag: tilt · wheel: pinch · double click: double tap</p>
      </section>
      <aside>
        <section><h2>Plugins</h2><ul id="plugins"></ul><p id="reload" role="status"></p></section>
        <section><h2>Errors</h2><ol id="errors"></ol></section>
        <section class="grow"><h2>Trace</h2><ol id="trace"></ol></section>
      </aside>
    </main>
    <script nonce="\(nonce)">
    \(PageScript.source)
    </script>
    </body>
    </html>
    """
  }
}
