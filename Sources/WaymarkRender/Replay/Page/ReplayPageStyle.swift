import WaymarkCore

/// The replay page's style sheet. A trace row's classes are its event's name; the names come
/// from ``TraceEvent``.
enum ReplayPageStyle {
  /// The CSS.
  static let source = #"""
    :root { color-scheme: light; --accent: #1a73e8; --line: #e3e5e8; --muted: #6b7280; --bad: #c5221f; }
    * { box-sizing: border-box; }
    html, body { margin: 0; height: 100%; }
    body { display: grid; grid-template-rows: auto 1fr auto; font: 14px/1.4 -apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: #202124; background: #f6f7f9; }
    header { display: flex; align-items: center; gap: 16px; padding: 8px 16px; border-bottom: 1px solid var(--line); background: #fff; }
    header h1 { font-size: 15px; font-weight: 600; margin: 0; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
    header .hint { margin-left: auto; color: var(--muted); font-size: 12px; white-space: nowrap; }
    kbd { font: 11px ui-monospace, SFMono-Regular, Menlo, monospace; padding: 1px 4px; border: 1px solid var(--line); border-bottom-width: 2px; border-radius: 4px; background: #fafafa; }
    #scenes { display: flex; gap: 4px; }
    #scenes button { border: 1px solid var(--line); background: #fff; border-radius: 14px; padding: 2px 10px; cursor: pointer; font: inherit; font-size: 12px; }
    #scenes button[aria-selected="true"] { background: var(--accent); border-color: var(--accent); color: #fff; }
    main { display: flex; min-height: 0; }
    #stage { flex: 0 0 auto; display: flex; justify-content: center; align-items: flex-start; padding: 12px; min-height: 0; }
    #map { height: 100%; width: auto; max-width: 60vw; border-radius: 14px; box-shadow: 0 1px 3px rgba(0,0,0,.2), 0 6px 24px rgba(0,0,0,.12); background: #aad3ee; }
    #trace { flex: 1 1 auto; min-width: 0; overflow: auto; background: #fff; border-left: 1px solid var(--line); }
    #records { list-style: none; margin: 0; padding: 4px 0; font: 12px/1.5 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
    .record { display: grid; grid-template-columns: 5.5em 17em 8em 1fr auto; gap: 8px; padding: 1px 12px; cursor: pointer; border-left: 3px solid transparent; }
    .record:hover { background: #f1f3f4; }
    .record .t { color: var(--muted); text-align: right; }
    .record .event { font-weight: 600; overflow: hidden; text-overflow: ellipsis; }
    .record .subject { color: #8430ce; overflow: hidden; text-overflow: ellipsis; }
    .record .details { color: #3c4043; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
    .record .plugin { font-size: 11px; padding: 0 6px; border-radius: 8px; background: #e8f0fe; color: #174ea6; white-space: nowrap; }
    .record .plugin.default { background: #f1f3f4; color: var(--muted); }
    .record .message { grid-column: 2 / -1; white-space: pre-wrap; color: #3c4043; }
    .record.future { opacity: .45; }
    .record.current { background: #e8f0fe; border-left-color: var(--accent); }
    .record.bad { background: #fce8e6; border-left-color: var(--bad); }
    .record.bad .event, .record.bad .message { color: var(--bad); }
    .record.bad.current { background: #fad2cf; }
    .record.\#(TraceEvent.callback(.didTapMarker)) .event, .record.\#(TraceEvent.callback(.didTapAtCoordinate)) .event, .record.\#(TraceEvent.callback(.didLongPressAtCoordinate)) .event { color: #0b57d0; }
    .record.\#(TraceEvent.infoWindowShown) .event, .record.\#(TraceEvent.infoWindowHidden) .event { color: #137333; }
    footer { display: flex; align-items: center; gap: 10px; padding: 8px 16px; border-top: 1px solid var(--line); background: #fff; }
    footer button { font: inherit; min-width: 36px; height: 32px; border: 1px solid var(--line); border-radius: 8px; background: #fff; cursor: pointer; }
    footer button#play { background: var(--accent); color: #fff; border-color: var(--accent); }
    #scrubber { flex: 1; accent-color: var(--accent); }
    #clock { font: 13px ui-monospace, SFMono-Regular, Menlo, monospace; min-width: 13em; text-align: right; }
    footer select { font: inherit; }
    #records.hide-tiles .record.tile { display: none; }
    footer label { white-space: nowrap; color: var(--muted); font-size: 13px; }
    """#
}
