/// The page's built-in assets: everything the browser gets is in this binary (no file is
/// ever read for a request), and the page loads nothing from anywhere else.
enum Page {
  /// The page's Content-Security-Policy: its own inline script and style, requests to its
  /// own origin only, no frames, no forms, no plugins.
  static let securityPolicy = (
    name: "Content-Security-Policy",
    value:
      "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
  )

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

  /// The live page.
  static let html = """
    <!doctype html>
    <html lang="en"><head><meta charset="utf-8"><title>waymark serve</title></head>
    <body><div id="map"></div><ol id="trace"></ol></body></html>
    """
}
