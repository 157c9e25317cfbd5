import WaymarkCore

/// The live page's script: the mouse is the finger (inputs posted to `/input`), the picture
/// comes from the server's renderer (`/map.svg`, the SVG snapshots' markup), the trace
/// streams in from `/events`, and `/state` gives the plugins, the clock and the selection.
/// The event names it compares records with come from ``TraceEvent``.
enum PageScript {
  static let source = #"""
    "use strict";
    (() => {
      const token = new URLSearchParams(location.search).get("token") || "";
      const route = (path, query) => `${path}?token=${encodeURIComponent(token)}${query ? "&" + query : ""}`;
      const $ = (id) => document.getElementById(id);
      const map = $("map"), traceList = $("trace"), errorList = $("errors");
      const HOLD_MS = 500, MOVE_PX = 5, DOUBLE_MS = 250, TRACE_LIMIT = 1000;
      let view = { width: 390, height: 844 }, clock = { paused: false, speed: 1 };

      // --- Talking to the server ---

      function status(text) { $("status").textContent = text; }

      async function send(input) {
        try {
          const response = await fetch(route("/input"), {
            method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(input),
          });
          const answer = await response.json();
          status(answer.ok ? "" : `${input.kind}: ${answer.error}`);
          if (answer.clock) { clock = answer.clock; showClock(); }
        } catch (error) {
          status(`the server does not answer (${error.message})`);
        }
        refresh();
      }

      let refreshing = false, again = false;
      function refresh() {
        if (refreshing) { again = true; return; }
        refreshing = true;
        requestAnimationFrame(async () => {
          try {
            const [state, svg] = await Promise.all([
              fetch(route("/state")).then((r) => r.json()),
              fetch(route("/map.svg")).then((r) => r.text()),
            ]);
            draw(svg);
            showState(state);
          } catch (error) {
            status(`the server does not answer (${error.message})`);
          }
          refreshing = false;
          if (again) { again = false; refresh(); }
        });
      }

      // --- Drawing ---

      function draw(text) {
        const parsed = new DOMParser().parseFromString(text, "image/svg+xml").documentElement;
        if (parsed.nodeName !== "svg") return;
        const svg = document.importNode(parsed, true);
        const old = map.querySelector("svg");
        if (old) map.replaceChild(svg, old); else map.prepend(svg);
      }

      function showState(state) {
        view = state.size;
        clock = state.clock;
        $("clock").textContent = `t = ${state.t.toFixed(3)} s`;
        showClock();
        const list = $("plugins");
        list.textContent = "";
        for (const plugin of state.plugins) {
          const item = document.createElement("li");
          const name = document.createElement("strong");
          name.textContent = plugin.name;
          const version = document.createElement("span");
          version.className = "version";
          version.textContent = plugin.version > 0 ? `v${plugin.version} · ${plugin.digest}` : "not loaded";
          version.title = plugin.file;
          item.append(name, version);
          if (plugin.isDisabled) item.append(" (disabled after repeated errors)");
          if (plugin.error) {
            const error = document.createElement("div");
            error.className = "plugin-error";
            error.textContent = (plugin.version > 0 ? `v${plugin.version} still answers; the edit failed: ` : "") + plugin.error;
            item.append(error);
          }
          list.append(item);
        }
      }

      function showClock() {
        $("pause").textContent = clock.paused ? "play" : "pause";
        $("speed").value = String(clock.speed);
      }

      // --- The trace ---

      const SUBJECT = ["marker", "overlay", "plugin"];
      const CAMERA_FRAMES = new Set(\#(TraceEvent.jsonArray([.callback(.didChangeCameraPosition)])));
      const FAILURES = new Set(\#(TraceEvent.jsonArray(TraceEvent.failures)));
      const PLUGIN_LOADS = new Set(\#(TraceEvent.jsonArray([.pluginLoaded, .pluginReloaded])));
      const RELOADS = new Set(\#(TraceEvent.jsonArray([.pluginReloaded])));
      function describe(record) {
        const parts = [];
        if (record.camera) parts.push(`(${record.camera.lat}, ${record.camera.lng}) zoom ${record.camera.zoom} bearing ${record.camera.bearing} tilt ${record.camera.tilt}`);
        if (record.coordinate) parts.push(`(${record.coordinate.lat}, ${record.coordinate.lng})`);
        if ("gesture" in record) parts.push(`gesture=${record.gesture}`);
        if ("result" in record) parts.push(`result=${record.result}`);
        if (record.plugin && record.marker) parts.push(`plugin=${record.plugin}`);
        for (const key of Object.keys(record)) {
          if (!["t", "event", "marker", "overlay", "plugin", "camera", "coordinate", "gesture", "result", "message"].includes(key)) {
            parts.push(`${key}=${typeof record[key] === "object" ? JSON.stringify(record[key]) : record[key]}`);
          }
        }
        if (record.message) parts.push(record.message);
        return parts.join(" ");
      }

      let lastRow = null, lastFrames = 0;
      function showRecord(record) {
        const frame = CAMERA_FRAMES.has(record.event);
        if (frame && lastRow && lastRow.dataset.event === record.event) {
          lastFrames += 1;
          lastRow.children[1].textContent = `${record.event} ×${lastFrames}`;
          lastRow.children[2].textContent = describe(record);
          return;
        }
        const row = document.createElement("li");
        row.dataset.event = record.event;
        for (const text of [record.t.toFixed(3), record.event, (SUBJECT.map((k) => record[k]).find((v) => v) || "") + " " + describe(record)]) {
          const cell = document.createElement("span");
          cell.textContent = text;
          row.append(cell);
        }
        const failed = FAILURES.has(record.event);
        if (failed) row.className = "error";
        if (PLUGIN_LOADS.has(record.event)) row.className = "reloaded";
        const follow = traceList.scrollTop + traceList.clientHeight >= traceList.scrollHeight - 4;
        traceList.append(row);
        while (traceList.children.length > TRACE_LIMIT) traceList.firstChild.remove();
        if (follow) traceList.scrollTop = traceList.scrollHeight;
        lastRow = row;
        lastFrames = 1;
        if (failed) showError(record);
        if (RELOADS.has(record.event)) showReload("ok", `${record.plugin} reloaded at t = ${record.t.toFixed(3)} s`);
      }

      function showError(record) {
        const item = document.createElement("li");
        const who = [record.plugin, record.handler].filter((v) => v).join(" · ");
        item.textContent = `${record.t.toFixed(3)} ${record.event}${who ? " " + who : ""}: ${record.message || ""}`;
        errorList.append(item);
        while (errorList.children.length > 100) errorList.firstChild.remove();
        if (record.handler === "reload" || record.handler === "load") {
          showReload("failed", `${record.plugin}: the edit did not load; the old version keeps answering. ${record.message || ""}`);
        }
      }

      function showReload(kind, text) {
        const line = $("reload");
        line.className = kind;
        line.textContent = text;
      }

      const events = new EventSource(route("/events", "since=0"));
      events.onmessage = (message) => {
        showRecord(JSON.parse(message.data));
        refresh();
      };
      events.addEventListener("dropped", () => status("the trace stream fell behind; resuming"));
      events.addEventListener("missed", (message) => {
        const row = document.createElement("li");
        row.className = "missed";
        row.textContent = `… ${JSON.parse(message.data).count} earlier records are no longer kept by the server`;
        traceList.append(row);
        lastRow = null;
      });
      events.onerror = () => status("the trace stream is reconnecting…");
      events.onopen = () => status("");

      // --- The mouse is the finger ---

      function point(event) {
        const svg = map.querySelector("svg");
        const box = (svg || map).getBoundingClientRect();
        return {
          x: (event.clientX - box.left) * view.width / box.width,
          y: (event.clientY - box.top) * view.height / box.height,
        };
      }

      function markerAt(event) {
        const hit = document.elementFromPoint(event.clientX, event.clientY);
        const marker = hit && hit.closest("#map g.marker");
        return marker ? marker.dataset.id : null;
      }

      // Whether the compass button (drawn while the map is rotated, R69) is under the pointer.
      function compassAt(event) {
        const hit = document.elementFromPoint(event.clientX, event.clientY);
        return Boolean(hit && hit.closest("#map g.compass"));
      }

      let press = null, pendingTap = null;

      map.addEventListener("pointerdown", (event) => {
        if (event.button !== 0 || event.target.closest("button")) return;
        event.preventDefault();
        map.setPointerCapture(event.pointerId);
        const start = point(event);
        press = { start, last: start, time: performance.now(), shift: event.shiftKey, alt: event.altKey,
          marker: markerAt(event), compass: compassAt(event), held: false, moved: false };
        press.timer = setTimeout(() => {
          if (press && !press.moved) { press.held = true; map.classList.add("held"); }
        }, HOLD_MS);
        map.classList.add("pressing");
      });

      map.addEventListener("pointermove", (event) => {
        if (!press) return;
        press.last = point(event);
        const dx = press.last.x - press.start.x, dy = press.last.y - press.start.y;
        if (Math.hypot(dx, dy) > MOVE_PX) press.moved = true;
        const svg = map.querySelector("svg");
        if (!svg || !press.moved || press.held || press.shift || press.alt) return;
        svg.style.transform = `translate(${dx * svg.getBoundingClientRect().width / view.width}px, ${dy * svg.getBoundingClientRect().height / view.height}px)`;
      });

      function release(event) {
        if (!press) return;
        const gesture = press;
        press = null;
        clearTimeout(gesture.timer);
        map.classList.remove("pressing", "held");
        const svg = map.querySelector("svg");
        if (svg) svg.style.transform = "";
        const end = event.type === "pointercancel" ? gesture.last : point(event);
        const dx = end.x - gesture.start.x, dy = end.y - gesture.start.y;
        const duration = Math.min(Math.max((performance.now() - gesture.time) / 1000, 0.1), 2);
        if (gesture.held) {
          if (gesture.moved && gesture.marker) send({ kind: "drag", marker: gesture.marker, x: end.x, y: end.y, duration });
          else send({ kind: "long_press", x: gesture.start.x, y: gesture.start.y });
        } else if (!gesture.moved && gesture.compass) {
          send({ kind: "tap_compass" });
        } else if (!gesture.moved) {
          tapOrDouble(gesture.start);
        } else if (gesture.shift) {
          send({ kind: "rotate", degrees: dx * 0.5, duration });
        } else if (gesture.alt) {
          send({ kind: "tilt", degrees: -dy * 0.3, duration });
        } else {
          send({ kind: "pan", dx, dy, duration });
        }
      }
      map.addEventListener("pointerup", release);
      map.addEventListener("pointercancel", release);

      // A click waits a moment for a second one: two make a double tap, not two taps.
      function tapOrDouble(at) {
        if (pendingTap && Math.hypot(at.x - pendingTap.at.x, at.y - pendingTap.at.y) < 20) {
          clearTimeout(pendingTap.timer);
          pendingTap = null;
          send({ kind: "double_tap", x: at.x, y: at.y });
          return;
        }
        if (pendingTap) { clearTimeout(pendingTap.timer); send({ kind: "tap", ...pendingTap.at }); }
        pendingTap = { at, timer: setTimeout(() => { pendingTap = null; send({ kind: "tap", x: at.x, y: at.y }); }, DOUBLE_MS) };
      }

      let wheel = null;
      map.addEventListener("wheel", (event) => {
        event.preventDefault();
        const at = point(event);
        if (!wheel) {
          wheel = { delta: 0, at };
          setTimeout(() => {
            const zoom = Math.max(-2, Math.min(2, -wheel.delta / 300));
            const around = wheel.at;
            wheel = null;
            if (zoom !== 0) send({ kind: "pinch", zoom_by: zoom, x: around.x, y: around.y, duration: 0.2 });
          }, 100);
        }
        wheel.delta += event.deltaMode === 1 ? event.deltaY * 40 : event.deltaY;
      }, { passive: false });

      $("my-location").addEventListener("click", () => send({ kind: "tap_my_location_button" }));

      // --- The clock ---

      for (const speed of [0.25, 0.5, 1, 2, 4]) {
        const option = document.createElement("option");
        option.value = String(speed);
        option.textContent = `${speed}×`;
        $("speed").append(option);
      }
      $("pause").addEventListener("click", () => send({ kind: "clock", paused: !clock.paused }));
      $("step").addEventListener("click", () => send({ kind: "advance", seconds: 0.1 }));
      $("speed").addEventListener("change", (event) => send({ kind: "clock", speed: Number(event.target.value) }));
      // While the clock plays, time moves even when nothing is traced.
      setInterval(() => { if (!clock.paused && !document.hidden) refresh(); }, 500);

      refresh();
    })();
    """#
}
