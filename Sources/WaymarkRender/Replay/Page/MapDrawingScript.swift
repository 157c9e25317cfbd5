/// The replay page's drawing module, `WaymarkDraw` (JavaScript): a ``SceneTimeline`` turned
/// into the ``SceneState`` at a time, and `render(svg, data, scene, state)`, which draws a
/// state into an SVG element with the same markup as ``SVGRenderer``. Drawings come from
/// Swift: each marker's sprite (``MarkerSprite``), each window's body, each overlay's paint.
/// The page only places them, with the core's projection (``ProjectionScript``) and the
/// placement of ``MarkerPlacement``; a test runs this script against the SVG of the same
/// scene. It knows nothing of playback, so other pages can draw with it too.
package enum MapDrawingScript {
  /// The script's source.
  package static let source =
    #"""
    // WaymarkDraw: draws a Waymark map's scene into an SVG element, as the SVG snapshots do.
    //
    // A scene (Sources/WaymarkRender/Scene) comes with its drawings made in Swift: markers'
    // sprites, windows' bodies, overlays' paint. This module places them: the projection is the
    // core's, ported operation by operation so that a marker stands where map:point_for says,
    // and markers are placed as MarkerPlacement.swift places them. It knows nothing of
    // playback: a Timeline turns keyframes and events into the state at a time, render() draws
    // a state, describe() lists what render() draws.
    "use strict";
    const WaymarkDraw = (() => {
      const SCENE_VERSION = \#(Scene.currentVersion);
      const MAX_LATITUDE = 85.05112877980659;
      const MARGIN = 8;
      const MINIMUM_STEP = 0.2;
      const RIPPLE_SECONDS = 0.6;

    """# + ProjectionScript.source + #"""

        // --- The timeline: keyframes and events into the state at a time (SceneTimeline.swift) ---

        // An event sets the fields it has.
        function apply(state, e) {
          if (e.camera) state.camera = e.camera;
          if (e.view) state.view = e.view;
          if (e.marker) state.markers.set(e.marker.n, e.marker);
          if (e.moved) {
            const m = state.markers.get(e.moved.n);
            if (m) state.markers.set(m.n, { ...m, lat: e.moved.lat, lng: e.moved.lng });
          }
          if (e.removed !== undefined) state.markers.delete(e.removed);
          if (e.selection) { state.selected = e.selection.marker ?? null; state.window = e.selection.window ?? null; }
          if (e.overlays !== undefined) state.overlays = e.overlays;
          if (e.places !== undefined) state.places = e.places;
        }

        class Timeline {
          constructor(scene) {
            if (scene.version !== SCENE_VERSION) throw new Error(`a scene of version ${scene.version}; this page draws version ${SCENE_VERSION}`);
            this.scene = scene;
            this.times = scene.events.map((e) => e.t);
            this.cache = null;
          }

          // How many events make the state at t: every event at or before t, except that at the
          // time of a picture (an idle camera or a snapshot) the state is the one the picture
          // shows, even if more happened at that same virtual time afterwards. The end of the
          // scene is its last moment: every event (a tap that closes a window at the time the
          // camera came to rest leaves no window there).
          countAt(t) {
            if (t >= this.scene.end - 1e-9) return this.times.length;
            let lo = 0, hi = this.times.length;
            while (lo < hi) { const mid = (lo + hi) >> 1; if (this.times[mid] < t - 1e-9) lo = mid + 1; else hi = mid; }
            for (let i = lo; i < this.times.length && this.times[i] <= t + 1e-9; i++) {
              if (this.scene.events[i].moment) return i + 1;
            }
            hi = this.times.length;
            while (lo < hi) { const mid = (lo + hi) >> 1; if (this.times[mid] <= t + 1e-9) lo = mid + 1; else hi = mid; }
            return lo;
          }

          stateAt(t) {
            const count = this.countAt(t);
            let state;
            if (this.cache && this.cache.count <= count && this.cache.keyframe === this.keyframeFor(count)) {
              state = this.cache.state;
              for (let i = this.cache.count; i < count; i++) apply(state, this.scene.events[i]);
            } else {
              const keyframe = this.scene.keyframes[this.keyframeFor(count)], k = keyframe.state;
              state = {
                camera: k.camera, view: k.view, markers: new Map(k.markers.map((m) => [m.n, m])),
                selected: k.selected ?? null, window: k.window ?? null, overlays: k.overlays, places: k.places,
              };
              for (let i = keyframe.at; i < count; i++) apply(state, this.scene.events[i]);
            }
            this.cache = { count, keyframe: this.keyframeFor(count), state };
            const touches = [];
            for (let i = count - 1; i >= 0 && this.times[i] > t - RIPPLE_SECONDS; i--) {
              const e = this.scene.events[i];
              if (e.touch) touches.push({ kind: e.touch.kind, x: e.touch.x, y: e.touch.y, age: Math.max(0, t - e.t) });
            }
            return { ...state, t, touches };
          }

          keyframeFor(count) {
            const keyframes = this.scene.keyframes;
            let best = 0;
            for (let i = 0; i < keyframes.length && keyframes[i].at <= count; i++) best = i;
            return best;
          }
        }

        // --- Placing markers (MarkerPlacement.swift) ---

        // The sprite a marker shows at t: for a multi-frame icon, frame floor(t / period) mod
        // count (MarkerIcon+Frames.swift, R48).
        function spriteOf(scene, m, t) {
          const sprites = scene.library.sprites;
          if (!m.frames) return sprites[m.sprite];
          const step = Math.floor(Math.max(t, 0) / m.frames.period + 1e-9);
          return sprites[m.frames.sprites[step % m.frames.sprites.length]];
        }

        // Where a marker stands at t, and how its sprite is turned, foreshortened, scaled and faded
        // there; null beyond the horizon. The appear curve is MarkerAppearance.swift's (R45).
        function placement(m, projection, t) {
          const anchor = projection.pointFor(m.lat, m.lng);
          if (!anchor) return null;
          let pop = null, fade = 1;
          const a = m.appear;
          if (a && a.duration > 0 && t < a.start + a.duration) {
            const rest = 1 - Math.min(Math.max(Math.max(t - a.start, 0) / a.duration, 0), 1);
            const fraction = 1 - rest * rest * rest;
            if (a.animation === "pop") pop = fraction; else fade = fraction;
          }
          return {
            anchor, angle: m.ground ? m.rotation - projection.camera.bearing : m.rotation,
            squash: m.ground ? projection.cosTilt : 1, pop, opacity: m.opacity * fade,
          };
        }

        // The screen point of a point of the sprite, given from its ground anchor.
        function placed(p, local) {
          const radians = p.angle * Math.PI / 180;
          const c = radians === 0 ? 1 : Math.cos(radians), s = radians === 0 ? radians : Math.sin(radians);
          return { x: p.anchor.x + local.x * c - local.y * s, y: p.anchor.y + (local.x * s + local.y * c) * p.squash };
        }

        // Whether the sprite's box reaches into the view.
        function reaches(p, box, view) {
          let minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity;
          for (const [x, y] of [[box.left, box.top], [box.right, box.top], [box.left, box.bottom], [box.right, box.bottom]]) {
            const q = placed(p, { x, y });
            minX = Math.min(minX, q.x); maxX = Math.max(maxX, q.x); minY = Math.min(minY, q.y); maxY = Math.max(maxY, q.y);
          }
          return minX + (maxX - minX) >= 0 && minX <= view.width && minY + (maxY - minY) >= 0 && minY <= view.height;
        }

        // The markers drawn, in drawing order (z-index, then order: R4), with their placements.
        function drawn(scene, state, projection) {
          const out = [];
          for (const m of state.markers.values()) {
            const p = placement(m, projection, state.t);
            if (p && reaches(p, spriteOf(scene, m, state.t).box, state.view)) out.push({ m, p });
          }
          out.sort((a, b) => a.m.z - b.m.z || a.m.order - b.m.order);
          return out;
        }

        // A marker's group: the contract's attributes, the placement, the sprite's art.
        function markerMarkup(m, sprite, p, selected) {
          const x = fmt(p.anchor.x, 2), y = fmt(p.anchor.y, 2);
          let out = `<g class="marker" data-id="${escapeXML(m.id)}" data-x="${x}" data-y="${y}"`;
          if (selected) out += ` data-selected="true"`;
          out += ` transform="translate(${x} ${y})`;
          if (p.squash !== 1) out += ` scale(1 ${fmt(p.squash, 4)})`;
          if (p.angle % 360 !== 0) out += ` rotate(${fmt(p.angle, 4)})`;
          if (p.pop !== null) out += ` scale(${fmt(p.pop, 4)})`;
          out += ` translate(${fmt(sprite.offset.x, 4)} ${fmt(sprite.offset.y, 4)})"`;
          if (p.opacity < 1) out += ` opacity="${fmt(p.opacity, 3)}"`;
          return out + `>${selected ? sprite.selectedArt : sprite.art}</g>`;
        }

        // Where the shown window's top-left corner is, or null when it is not drawn: its tail on
        // its marker's info window anchor, or on its point of interest.
        function windowOrigin(scene, state, projection) {
          if (state.window === null) return null;
          const win = scene.library.windows[state.window];
          let tail = null;
          if (win.place) {
            tail = projection.pointFor(win.place.lat, win.place.lng);
          } else {
            const m = state.markers.get(win.marker), p = m && placement(m, projection, state.t);
            if (p) tail = placed(p, spriteOf(scene, m, state.t).window);
          }
          return tail ? { x: tail.x - win.width / 2, y: tail.y - win.height, win } : null;
        }

        // Text escaped as SVGBuffer.escaped escapes it.
        function escapeXML(text) {
          return String(text)
            .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, "").replace(/[\uFFFE\uFFFF]/g, "\uFFFD")
            .replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
        }

      """# + MapRenderScript.source + #"""

        // What render() draws, as waymarkReplay.state() reports it.
        function describe(scene, state) {
          const projection = new Projection(state.camera, state.view);
          const origin = windowOrigin(scene, state, projection);
          return {
            t: state.t,
            camera: { ...state.camera },
            markers: drawn(scene, state, projection).map(({ m, p }) => ({ id: m.id, x: p.anchor.x, y: p.anchor.y })),
            infoWindow: origin ? { marker: origin.win.id ?? null, kind: origin.win.kind, text: origin.win.text } : null,
          };
        }

        return { Projection, Timeline, decodeLand, decodeCities, render, describe, worldPoint };
      })();
      """#
}
