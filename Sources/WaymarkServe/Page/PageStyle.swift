/// The live page's style sheet.
enum PageStyle {
  static let source = """
    * { box-sizing: border-box; }
    body { margin: 0; font: 13px/1.4 system-ui, sans-serif; color: #202124; background: #f1f3f4;
      height: 100vh; display: flex; flex-direction: column; }
    header { display: flex; gap: 12px; align-items: center; padding: 8px 12px; background: #fff;
      border-bottom: 1px solid #dadce0; }
    header h1 { font-size: 15px; margin: 0 8px 0 0; }
    #clock { font-variant-numeric: tabular-nums; min-width: 8em; }
    #status { color: #5f6368; }
    button, select { font: inherit; }
    main { flex: 1; display: flex; min-height: 0; }
    #stage { position: relative; padding: 12px; overflow: auto; }
    #map { position: relative; display: inline-block; line-height: 0; cursor: grab; user-select: none;
      touch-action: none; box-shadow: 0 1px 3px rgba(0,0,0,.3); background: #aadaff; }
    #map.pressing { cursor: grabbing; }
    #map.held { outline: 3px solid #fbbc04; }
    #map svg { display: block; max-height: calc(100vh - 110px); width: auto; height: auto; }
    #my-location { position: absolute; right: 10px; bottom: 10px; line-height: 1.4; }
    .hint { color: #5f6368; max-width: 390px; line-height: 1.5; }
    aside { flex: 1; display: flex; flex-direction: column; min-width: 320px; padding: 12px;
      gap: 12px; min-height: 0; }
    aside section { background: #fff; border: 1px solid #dadce0; border-radius: 6px; padding: 8px 12px; }
    aside section.grow { flex: 1; display: flex; flex-direction: column; min-height: 0; }
    h2 { font-size: 13px; margin: 0 0 6px; color: #5f6368; text-transform: uppercase; letter-spacing: .04em; }
    ul, ol { margin: 0; padding: 0; list-style: none; }
    #plugins li { padding: 2px 0; }
    #plugins .version { font-family: ui-monospace, monospace; color: #1a73e8; margin-left: .5em; }
    #plugins .plugin-error, .error, #errors li { color: #c5221f; }
    #errors li { font-family: ui-monospace, monospace; white-space: pre-wrap; padding: 2px 0; }
    #errors:empty::after { content: "none"; color: #5f6368; }
    #reload { margin: 6px 0 0; }
    #reload.ok { color: #188038; }
    #reload.failed { color: #c5221f; }
    #trace { flex: 1; overflow: auto; font-family: ui-monospace, monospace; font-size: 12px; }
    #trace li { display: grid; grid-template-columns: 5.5em 18em 1fr; gap: 8px; padding: 1px 0;
      border-bottom: 1px solid #f1f3f4; white-space: nowrap; }
    #trace li span { overflow: hidden; text-overflow: ellipsis; }
    #trace li span:last-child { white-space: pre-wrap; }
    #trace li.error { background: #fce8e6; font-weight: 600; }
    #trace li.reloaded { background: #e6f4ea; }
    #trace li.missed { color: #5f6368; font-style: italic; }
    """
}
