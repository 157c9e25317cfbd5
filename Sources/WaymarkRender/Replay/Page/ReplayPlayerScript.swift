import WaymarkCore

/// The replay page's controls (JavaScript): playback on virtual time, the trace beside the
/// map, scene tabs, keyboard shortcuts, the `#t=` fragment and `window.waymarkReplay`. The
/// event names it compares records with come from ``TraceEvent`` (``TraceEvent/jsonArray(_:)``),
/// the failures' from the page's data (the events whose tone is a failure).
enum ReplayPlayerScript {
  /// The script's source.
  static let source = #"""
    // The replay's controls: playback on virtual time, the trace beside the map, the scene
    // tabs, keyboard shortcuts and window.waymarkReplay. Drawing is WaymarkDraw's.
    "use strict";
    (() => {
      const data = JSON.parse(document.getElementById("waymark-replay-data").textContent);
      data.land = WaymarkDraw.decodeLand(data.land);
      data.cities = WaymarkDraw.decodeCities(data.cities);
      const svg = document.getElementById("map");
      const list = document.getElementById("records");
      const clock = document.getElementById("clock");
      const scrubber = document.getElementById("scrubber");
      const playButton = document.getElementById("play");
      const speedSelect = document.getElementById("speed");
      const tabs = document.getElementById("scenes");
      const SPEEDS = [0.25, 0.5, 1, 2, 4];
      const ICON = (d) => `<svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true"><path d="${d}" fill="currentColor"/></svg>`;
      const PLAY = ICON("M4 2.5v11l9-5.5z"), PAUSE = ICON("M3.5 2.5h3v11h-3zM9.5 2.5h3v11h-3z");
      const FRAME = 1 / 60;

      let scene, timeline, rows, eventTimes;
      let time = 0, playing = false, speed = 1, lastFrame = null, currentRow = -1;

      function show(index) {
        scene = data.scenes[index];
        timeline = new WaymarkDraw.Timeline(scene);
        for (const [i, tab] of Array.from(tabs.children).entries()) tab.setAttribute("aria-selected", String(i === index));
        scrubber.max = String(scene.end);
        buildTrace();
        currentRow = -1;
        seek(0);
      }

      // --- The trace ---

      const SUBJECTS = ["marker", "overlay", "place_id"];
      const CAMERA_FRAMES = new Set(\#(TraceEvent.jsonArray([.callback(.didChangeCameraPosition)])));
      const TILE_EVENTS = new Set(\#(TraceEvent.jsonArray(
        [.callback(.didStartTileRendering), .callback(.didFinishTileRendering), .callback(.snapshotReady)])));
      const FAILURES = new Set(data.failures);
      const SKIPPED = new Set(["t", "event", "marker", "overlay", "camera", "plugin", "message", "result"]);

      function describeRecord(record) {
        const parts = [];
        if (record.camera) {
          const c = record.camera;
          parts.push(`(${c.lat.toFixed(4)}, ${c.lng.toFixed(4)}) zoom ${+c.zoom.toFixed(2)} bearing ${+c.bearing.toFixed(1)} tilt ${+c.tilt.toFixed(1)}`);
        }
        if (record.coordinate) parts.push(`(${record.coordinate.lat}, ${record.coordinate.lng})`);
        if ("result" in record) parts.push(`result=${record.result}`);
        for (const [key, value] of Object.entries(record)) {
          if (SKIPPED.has(key) || key === "coordinate" || SUBJECTS.includes(key)) continue;
          parts.push(`${key}=${typeof value === "object" ? JSON.stringify(value) : value}`);
        }
        return parts.join(" ");
      }

      function buildTrace() {
        list.textContent = "";
        rows = [];
        const records = data.records.slice(scene.records.from, scene.records.to);
        // A camera move is one row; the tile records that fall among its frames follow it.
        const queue = [];
        for (let i = 0; i < records.length; i++) {
          const record = records[i];
          if (!CAMERA_FRAMES.has(record.event)) { queue.push([record, record, 1]); continue; }
          let last = record, count = 1, j = i + 1;
          const between = [];
          for (; j < records.length; j++) {
            if (CAMERA_FRAMES.has(records[j].event)) { last = records[j]; count++; continue; }
            if (!TILE_EVENTS.has(records[j].event)) break;
            between.push(records[j]);
          }
          queue.push([record, last, count], ...between.map((r) => [r, r, 1]));
          i = j - 1;
        }
        queue.sort((a, b) => a[0].t - b[0].t);
        for (const [record, last, count] of queue) {
          const li = document.createElement("li");
          li.className = "record " + record.event.replace(/[^a-z_]/g, "");
          if (TILE_EVENTS.has(record.event)) li.classList.add("tile");
          if (FAILURES.has(record.event)) li.classList.add("bad");
          const t = document.createElement("span");
          t.className = "t";
          t.textContent = record.t.toFixed(3);
          const event = document.createElement("span");
          event.className = "event";
          event.textContent = record.event;
          const subject = document.createElement("span");
          subject.className = "subject";
          subject.textContent = count > 1 ? `\u00d7${count} frames` : SUBJECTS.map((k) => record[k]).find((v) => v !== undefined) || "";
          const details = document.createElement("span");
          details.className = "details";
          details.textContent = count > 1 ? `${record.t.toFixed(3)}\u2026${last.t.toFixed(3)} \u2192 ${describeRecord(last)}` : describeRecord(record);
          li.append(t, event, subject, details);
          if ("plugin" in record) {
            const plugin = document.createElement("span");
            plugin.className = "plugin" + (record.plugin === null ? " default" : "");
            plugin.textContent = record.plugin === null ? "default" : record.plugin;
            plugin.title = record.plugin === null ? "no plugin answered: the map's default" : "answered by plugin " + record.plugin;
            li.append(plugin);
          }
          if (record.message !== undefined) {
            const message = document.createElement("div");
            message.className = "message";
            message.textContent = record.message;
            li.append(message);
          }
          li.dataset.t = String(record.t);
          li.title = "seek to " + record.t.toFixed(3) + " s";
          li.addEventListener("click", () => { pause(); seek(record.t); });
          list.append(li);
          rows.push({ li, t: record.t, end: last.t, frames: count > 1, tile: TILE_EVENTS.has(record.event) });
        }
        eventTimes = [...new Set(rows.filter((r) => !r.frames).map((r) => r.t).concat(scene.events.filter((e) => e.touch || e.moment === "idle").map((e) => e.t)))].sort((a, b) => a - b);
      }

      function updateTrace(follow) {
        let index = -1;
        const hideTiles = list.classList.contains("hide-tiles");
        for (let i = 0; i < rows.length && rows[i].t <= time + 1e-9; i++) if (!(hideTiles && rows[i].tile)) index = i;
        for (let i = 0; i < rows.length; i++) rows[i].li.classList.toggle("future", rows[i].t > time + 1e-9);
        if (index === currentRow) return;
        if (currentRow >= 0 && rows[currentRow]) rows[currentRow].li.classList.remove("current");
        currentRow = index;
        if (index >= 0) {
          rows[index].li.classList.add("current");
          if (follow) rows[index].li.scrollIntoView({ block: "nearest" });
        }
      }

      // --- Time ---

      function seek(t, follow = true) {
        time = Math.min(Math.max(Number(t) || 0, 0), scene.end);
        const state = timeline.stateAt(time);
        WaymarkDraw.render(svg, data, scene, state);
        clock.textContent = `${time.toFixed(3)} / ${scene.end.toFixed(3)} s`;
        scrubber.value = String(time);
        updateTrace(follow);
      }

      function frame(now) {
        if (!playing) return;
        if (lastFrame !== null) {
          const next = time + (now - lastFrame) / 1000 * speed;
          seek(Math.min(next, scene.end));
          if (next >= scene.end) { pause(); return; }
        }
        lastFrame = now;
        requestAnimationFrame(frame);
      }

      function play() {
        if (playing) return;
        if (time >= scene.end) seek(0);
        playing = true;
        lastFrame = null;
        playButton.innerHTML = PAUSE;
        playButton.setAttribute("aria-label", "pause");
        requestAnimationFrame(frame);
      }

      function pause() {
        playing = false;
        playButton.innerHTML = PLAY;
        playButton.setAttribute("aria-label", "play");
      }

      function step(direction) {
        pause();
        const next = direction > 0 ? eventTimes.find((t) => t > time + 1e-9) : [...eventTimes].reverse().find((t) => t < time - 1e-9);
        seek(next === undefined ? (direction > 0 ? scene.end : 0) : next);
      }

      function setSpeed(value) {
        speed = value;
        speedSelect.value = String(value);
      }

      function changeSpeed(direction) {
        const index = SPEEDS.indexOf(speed) + direction;
        if (index >= 0 && index < SPEEDS.length) setSpeed(SPEEDS[index]);
      }

      // --- Wiring ---

      for (const [index, s] of data.scenes.entries()) {
        const tab = document.createElement("button");
        tab.type = "button";
        tab.textContent = s.title;
        tab.addEventListener("click", () => { pause(); show(index); });
        tabs.append(tab);
      }
      tabs.hidden = data.scenes.length < 2;
      for (const value of SPEEDS) {
        const option = document.createElement("option");
        option.value = String(value);
        option.textContent = value + "\u00d7";
        speedSelect.append(option);
      }
      setSpeed(1);
      const tiles = document.getElementById("tiles");
      list.classList.toggle("hide-tiles", !tiles.checked);
      tiles.addEventListener("change", () => { list.classList.toggle("hide-tiles", !tiles.checked); currentRow = -1; updateTrace(true); });
      playButton.addEventListener("click", () => (playing ? pause() : play()));
      document.getElementById("previous").innerHTML = ICON("M3 2.5h2v11H3zM13 2.5v11L6 8z");
      document.getElementById("next").innerHTML = ICON("M11 2.5h2v11h-2zM3 2.5v11L10 8z");
      playButton.innerHTML = PLAY;
      document.getElementById("previous").addEventListener("click", () => step(-1));
      document.getElementById("next").addEventListener("click", () => step(1));
      speedSelect.addEventListener("change", () => setSpeed(Number(speedSelect.value)));
      scrubber.addEventListener("input", () => { pause(); seek(Number(scrubber.value)); });
      document.addEventListener("keydown", (event) => {
        if (event.target instanceof HTMLSelectElement || event.metaKey || event.ctrlKey || event.altKey) return;
        const actions = {
          " ": () => (playing ? pause() : play()), k: () => (playing ? pause() : play()),
          ArrowRight: () => step(1), ArrowLeft: () => step(-1), l: () => step(1), j: () => step(-1),
          ".": () => { pause(); seek(time + FRAME); }, ",": () => { pause(); seek(time - FRAME); },
          "+": () => changeSpeed(1), "=": () => changeSpeed(1), "-": () => changeSpeed(-1),
          Home: () => { pause(); seek(0); }, End: () => { pause(); seek(scene.end); },
        };
        const action = actions[event.key];
        if (!action) return;
        event.preventDefault();
        action();
      });

      function fromFragment() {
        const match = /(?:^#|&)t=([0-9]*\.?[0-9]+)/.exec(location.hash);
        if (match) { pause(); seek(Number(match[1])); }
      }
      window.addEventListener("hashchange", fromFragment);

      window.waymarkReplay = {
        seek(t) { pause(); seek(t); return time; },
        state() { return WaymarkDraw.describe(scene, timeline.stateAt(time)); },
        play, pause,
        get time() { return time; },
        get duration() { return scene.end; },
        get playing() { return playing; },
        get scenes() { return data.scenes.map((s) => s.title); },
        scene(index) { pause(); show(index); },
      };

      show(0);
      fromFragment();
    })();
    """#
}
