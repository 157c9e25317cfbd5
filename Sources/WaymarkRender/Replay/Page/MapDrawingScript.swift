/// The replay page's drawing module, `WaymarkDraw` (JavaScript): the core's projection ported
/// operation by operation, the timeline of keyframes and events, and `render(svg, data,
/// scene, state)`, which draws a map's state into an SVG element with the same markup as
/// ``SVGRenderer``. It knows nothing of playback, so other pages (the live map) can draw
/// with it too.
package enum MapDrawingScript {
  /// The script's source.
  package static let source = #"""
    // WaymarkDraw: draws a Waymark map's state into an SVG element, as the SVG snapshots do.
    //
    // The projection is the core's (Sources/WaymarkCore/Geometry/Projection.swift and
    // Mercator.swift), ported operation by operation so that a marker stands where
    // map:point_for says; shapes are drawn as ShapeProjector.swift draws them; icons and info
    // windows come ready-drawn from the data (the same markup as the snapshots). The module
    // knows nothing of playback: a Timeline turns keyframes and events into the state at a time,
    // render() draws a state, drawnMarkers() lists what render() draws.
    "use strict";
    const WaymarkDraw = (() => {
      const MAX_LATITUDE = 85.05112877980659;
      const MARGIN = 8;
      const MINIMUM_STEP = 0.2;
      const RIPPLE_SECONDS = 0.6;

      // --- Mercator.swift ---

      function wrapLongitude(longitude) {
        if (longitude >= -180 && longitude < 180) return longitude;
        const wrapped = (longitude + 180) % 360;
        return (wrapped < 0 ? wrapped + 360 : wrapped) - 180;
      }

      function worldPoint(latitude, longitude) {
        const clamped = Math.min(Math.max(latitude, -MAX_LATITUDE), MAX_LATITUDE);
        const sinLat = Math.sin(clamped * Math.PI / 180);
        const y = 0.5 - Math.log((1 + sinLat) / (1 - sinLat)) / (4 * Math.PI);
        return { x: wrapLongitude(longitude) / 360 + 0.5, y };
      }

      function latitudeOf(y) {
        const clamped = Math.min(Math.max(y, 0), 1);
        return 90 - 360 * Math.atan(Math.exp((clamped - 0.5) * 2 * Math.PI)) / Math.PI;
      }

      function wrappedDelta(a, b) {
        let delta = (b - a) % 1;
        if (delta >= 0.5) delta -= 1;
        else if (delta < -0.5) delta += 1;
        return delta;
      }

      // --- Projection.swift ---

      class Projection {
        constructor(camera, view) {
          this.camera = camera;
          this.view = view;
          this.cx = view.left + (view.width - view.left - view.right) / 2;
          this.cy = view.top + (view.height - view.top - view.bottom) / 2;
          const target = worldPoint(camera.lat, camera.lng);
          this.tx = target.x;
          this.ty = target.y;
          this.scale = 256 * Math.pow(2, camera.zoom);
          const bearing = camera.bearing * Math.PI / 180, tilt = camera.tilt * Math.PI / 180;
          this.cosBearing = Math.cos(bearing);
          this.sinBearing = Math.sin(bearing);
          this.cosTilt = Math.cos(tilt);
          this.sinTilt = Math.sin(tilt);
          this.distance = 1.5 * Math.max(view.height, 1);
        }

        ground(worldDX, worldDY) {
          const dx = worldDX * this.scale, dy = worldDY * this.scale;
          const x = dx * this.cosBearing + dy * this.sinBearing;
          const y = -dx * this.sinBearing + dy * this.cosBearing;
          return { x, y, depth: this.distance - y * this.sinTilt };
        }

        groundOfUnwrapped(x, y) { return this.ground(x - this.tx, y - this.ty); }

        pointForGround(ground) {
          if (!(ground.depth > this.distance * 1e-3)) return null;
          const factor = this.distance / ground.depth;
          return { x: this.cx + ground.x * factor, y: this.cy + ground.y * this.cosTilt * factor };
        }

        pointForWorld(x, y) { return this.pointForGround(this.ground(wrappedDelta(this.tx, x), y - this.ty)); }

        pointFor(latitude, longitude) {
          const world = worldPoint(latitude, longitude);
          return this.pointForWorld(world.x, world.y);
        }

        worldPointFor(px, py) {
          const a = px - this.cx, b = py - this.cy;
          const denominator = this.distance * this.cosTilt + b * this.sinTilt;
          if (!(denominator > this.distance * 1e-3)) return null;
          const groundY = b * this.distance / denominator;
          const groundX = a * (this.distance - groundY * this.sinTilt) / this.distance;
          const dx = groundX * this.cosBearing - groundY * this.sinBearing;
          const dy = groundX * this.sinBearing + groundY * this.cosBearing;
          return { x: this.tx + dx / this.scale, y: this.ty + dy / this.scale };
        }
      }

      // --- WorldShape.swift and NaturalEarthLand.swift ---

      function shape(points, closed) {
        let minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity;
        for (let i = 0; i < points.length; i += 2) {
          minX = Math.min(minX, points[i]); maxX = Math.max(maxX, points[i]);
          minY = Math.min(minY, points[i + 1]); maxY = Math.max(maxY, points[i + 1]);
        }
        return { points, closed, minX, maxX, minY, maxY };
      }

      function decodeLand(text) {
        const rings = [];
        for (const encoded of text.replace(/\n/g, "").split(",")) {
          const points = [];
          let value = 0, shift = 0, pending = null, latitude = 0, longitude = 0;
          for (let i = 0; i < encoded.length; i++) {
            const chunk = encoded.charCodeAt(i) - 63;
            value |= (chunk & 0x1f) << shift;
            shift += 5;
            if (chunk >= 0x20) continue;
            const number = value & 1 ? ~(value >> 1) : value >> 1;
            value = 0; shift = 0;
            if (pending === null) { pending = number; continue; }
            latitude += pending; longitude += number; pending = null;
            const world = worldPoint(latitude / 100, longitude / 100);
            if (points.length) world.x = points[points.length - 2] + wrappedDelta(points[points.length - 2], world.x);
            points.push(world.x, world.y);
          }
          if (points.length >= 6) rings.push(shape(points, true));
        }
        return rings;
      }

      // --- NaturalEarthCities.swift ---

      function decodeCities(text) {
        return text.split("\n").map((line) => {
          const match = /^(\S+) (\S+) (.+)$/.exec(line);
          if (!match) return null;
          const world = worldPoint(Number(match[1]), Number(match[2]));
          return { name: match[3], x: world.x, y: world.y, length: Array.from(match[3]).length };
        }).filter(Boolean);
      }

      function cityLabels(cities, projection) {
        const placed = [], boxes = [];
        for (const city of cities) {
          if (placed.length >= 40) break;
          const p = projection.pointForWorld(city.x, city.y);
          if (!p || p.x < 0 || p.x > projection.view.width || p.y < 0 || p.y > projection.view.height) continue;
          const box = { minX: p.x - 4, minY: p.y - 9, maxX: p.x - 4 + 10 + city.length * 6.2, maxY: p.y - 9 + 14 };
          if (boxes.some((b) => b.minX < box.maxX && box.minX < b.maxX && b.minY < box.maxY && box.minY < b.maxY)) continue;
          boxes.push(box);
          placed.push({ city, p });
        }
        return placed;
      }

      // --- ShapeProjector.swift ---

      function fmt(value, decimals) {
        const scale = Math.pow(10, decimals);
        const rounded = Math.round(value * scale) / scale;
        return rounded === 0 || !isFinite(rounded) ? "0" : String(rounded);
      }

      class ShapeProjector {
        constructor(projection) {
          this.projection = projection;
          const v = projection.view;
          this.clip = { minX: -MARGIN, minY: -MARGIN, maxX: v.width + MARGIN, maxY: v.height + MARGIN };
          this.nearDepth = projection.distance * 0.05;
          const corners = [[this.clip.minX, this.clip.minY], [this.clip.maxX, this.clip.minY],
            [this.clip.minX, this.clip.maxY], [this.clip.maxX, this.clip.maxY]]
            .map(([x, y]) => projection.worldPointFor(x, y)).filter(Boolean);
          if (corners.length === 4) {
            this.visible = {
              minX: Math.min(...corners.map((c) => c.x)), maxX: Math.max(...corners.map((c) => c.x)),
              minY: Math.min(...corners.map((c) => c.y)), maxY: Math.max(...corners.map((c) => c.y)),
            };
          } else {
            this.visible = { minX: projection.tx - 1, maxX: projection.tx + 1, minY: 0, maxY: 1 };
          }
        }

        copies(s) {
          const v = this.visible;
          if (!(s.maxY >= v.minY && s.minY <= v.maxY && s.minX <= s.maxX)) return [];
          const out = [];
          for (let k = Math.ceil(v.minX - s.maxX); k <= Math.floor(v.maxX - s.minX); k++) out.push(k);
          return out;
        }

        nearestCopy(s) { return s.points.length ? Math.round(this.projection.tx - s.points[0]) : 0; }

        path(s, offset, decimals) {
          const p = this.projection;
          const ground = [];
          for (let i = 0; i < s.points.length; i += 2) ground.push(p.groundOfUnwrapped(s.points[i] + offset, s.points[i + 1]));
          if (s.closed) {
            const front = clipRingDepth(ground, this.nearDepth);
            if (front.length < 3) return "";
            const screen = clipRingRect(front.map((g) => p.pointForGround(g)), this.clip);
            return screen.length < 3 ? "" : writePath(screen, true, decimals);
          }
          let out = "", run = [];
          for (let i = 0; i + 1 < ground.length; i++) {
            const front = clipSegmentDepth(ground[i], ground[i + 1], this.nearDepth);
            if (!front) continue;
            const seg = clipSegmentRect(p.pointForGround(front[0]), p.pointForGround(front[1]), this.clip);
            if (!seg) continue;
            const last = run[run.length - 1];
            if (last && (last.x !== seg[0].x || last.y !== seg[0].y)) { out += writePath(run, false, decimals); run = []; }
            if (!run.length) run.push(seg[0]);
            run.push(seg[1]);
          }
          if (run.length >= 2) out += writePath(run, false, decimals);
          return out;
        }

        screenPoints(s, offset) {
          const out = [];
          for (let i = 0; i < s.points.length; i += 2) {
            const g = this.projection.groundOfUnwrapped(s.points[i] + offset, s.points[i + 1]);
            if (g.depth >= this.nearDepth) out.push(this.projection.pointForGround(g));
          }
          return out;
        }
      }

      function writePath(points, closed, decimals) {
        let out = "M" + fmt(points[0].x, decimals) + " " + fmt(points[0].y, decimals);
        let last = points[0];
        for (let i = 1; i < points.length; i++) {
          const point = points[i];
          const isEnd = i === points.length - 1;
          if ((!isEnd || closed) && Math.abs(point.x - last.x) < MINIMUM_STEP && Math.abs(point.y - last.y) < MINIMUM_STEP) continue;
          out += "L" + fmt(point.x, decimals) + " " + fmt(point.y, decimals);
          last = point;
        }
        return closed ? out + "Z" : out;
      }

      function depthCrossing(a, b, depth) {
        const t = (depth - a.depth) / (b.depth - a.depth);
        return { x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t, depth };
      }

      function clipRingDepth(ring, nearDepth) {
        if (!ring.some((g) => g.depth < nearDepth)) return ring;
        const out = [];
        let previous = ring[ring.length - 1];
        for (const current of ring) {
          const inside = current.depth >= nearDepth, wasInside = previous.depth >= nearDepth;
          if (inside !== wasInside) out.push(depthCrossing(previous, current, nearDepth));
          if (inside) out.push(current);
          previous = current;
        }
        return out;
      }

      function clipSegmentDepth(a, b, nearDepth) {
        const ina = a.depth >= nearDepth, inb = b.depth >= nearDepth;
        if (ina && inb) return [a, b];
        if (!ina && !inb) return null;
        return ina ? [a, depthCrossing(a, b, nearDepth)] : [depthCrossing(a, b, nearDepth), b];
      }

      function insideEdge(p, edge, r) {
        return edge === 0 ? p.x >= r.minX : edge === 1 ? p.x <= r.maxX : edge === 2 ? p.y >= r.minY : p.y <= r.maxY;
      }

      function edgeCrossing(a, b, edge, r) {
        if (edge < 2) {
          const x = edge === 0 ? r.minX : r.maxX;
          return { x, y: a.y + (b.y - a.y) * (x - a.x) / (b.x - a.x) };
        }
        const y = edge === 2 ? r.minY : r.maxY;
        return { x: a.x + (b.x - a.x) * (y - a.y) / (b.y - a.y), y };
      }

      function clipRingRect(ring, r) {
        if (ring.every((p) => p.x >= r.minX && p.x <= r.maxX && p.y >= r.minY && p.y <= r.maxY)) return ring;
        let points = ring;
        for (let edge = 0; edge < 4; edge++) {
          if (!points.length) return [];
          const out = [];
          let previous = points[points.length - 1];
          for (const current of points) {
            const inside = insideEdge(current, edge, r), wasInside = insideEdge(previous, edge, r);
            if (inside !== wasInside) out.push(edgeCrossing(previous, current, edge, r));
            if (inside) out.push(current);
            previous = current;
          }
          points = out;
        }
        return points;
      }

      function clipSegmentRect(a, b, r) {
        let t0 = 0, t1 = 1;
        const dx = b.x - a.x, dy = b.y - a.y;
        for (const [p, q] of [[-dx, a.x - r.minX], [dx, r.maxX - a.x], [-dy, a.y - r.minY], [dy, r.maxY - a.y]]) {
          if (p === 0) { if (q < 0) return null; continue; }
          const ratio = q / p;
          if (p < 0) t0 = Math.max(t0, ratio); else t1 = Math.min(t1, ratio);
          if (t0 > t1) return null;
        }
        return [t0 === 0 ? a : { x: a.x + dx * t0, y: a.y + dy * t0 }, t1 === 1 ? b : { x: a.x + dx * t1, y: a.y + dy * t1 }];
      }

      // --- Graticule.swift ---

      const STEPS = [30, 10];
      for (let e = 0, scale = 1; e <= 8; e++, scale /= 10) STEPS.push(5 * scale, 2 * scale, scale);

      function graticuleStep(zoom) {
        const pointsPerDegree = 256 * Math.pow(2, zoom) / 360;
        for (let i = STEPS.length - 1; i >= 0; i--) if (STEPS[i] * pointsPerDegree >= 96) return STEPS[i];
        return STEPS[0];
      }

      function graticule(projector) {
        const step = graticuleStep(projector.projection.camera.zoom), v = projector.visible;
        const top = Math.max(v.minY, 0), bottom = Math.min(v.maxY, 1);
        const lines = [];
        if (!(top < bottom)) return lines;
        const west = Math.ceil((v.minX - 0.5) * 360 / step), east = Math.floor((v.maxX - 0.5) * 360 / step);
        if (west <= east && east - west < 120) {
          for (let i = west; i <= east; i++) {
            const x = i * step / 360 + 0.5;
            lines.push(shape([x, top, x, bottom], false));
          }
        }
        const first = Math.ceil(latitudeOf(bottom) / step), last = Math.floor(latitudeOf(top) / step);
        if (first <= last && last - first < 120) {
          for (let i = first; i <= last; i++) {
            const latitude = i * step;
            if (Math.abs(latitude) >= MAX_LATITUDE) continue;
            const y = worldPoint(latitude, 0).y;
            lines.push(shape([v.minX, y, v.maxX, y], false));
          }
        }
        return lines;
      }

      // --- The timeline: keyframes and events into the state at a time ---

      function markerOf(fields) {
        const [n, id, lat, lng, icon, gx, gy, ax, ay, rotation, flat, opacity, z, order, appear, appearStart] = fields;
        return { n, id, lat, lng, icon, gx, gy, ax, ay, rotation, flat: !!flat, opacity, z, order, appear: appear || 0, appearStart };
      }

      function apply(state, event) {
        const op = event[1];
        switch (op) {
          case "c": state.camera = { lat: event[2], lng: event[3], zoom: event[4], bearing: event[5], tilt: event[6] }; break;
          case "a": case "u": { const m = markerOf(event.slice(2)); state.markers.set(m.n, m); break; }
          case "m": { const m = state.markers.get(event[2]); if (m) state.markers.set(m.n, { ...m, lat: event[3], lng: event[4] }); break; }
          case "r": state.markers.delete(event[2]); break;
          case "s": state.selected = event[2]; state.window = event[3]; break;
          case "o": state.overlays = event[2]; break;
          case "p": state.places = event[2]; break;
          case "v": state.view = viewOf(event.slice(2)); break;
        }
      }

      function viewOf([width, height, top, left, bottom, right]) { return { width, height, top, left, bottom, right }; }

      class Timeline {
        constructor(scene) {
          this.scene = scene;
          this.times = scene.events.map((e) => e[0]);
          this.cache = null;
        }

        // How many events make the state at t: every event at or before t, except that at the
        // time of a picture (an idle camera, "i", or a snapshot, "k") the state is the one the
        // picture shows, even if more happened at that same virtual time afterwards. The end of
        // the scene is its last moment: every event (a tap that closes a window at the time the
        // camera came to rest leaves no window there).
        countAt(t) {
          if (t >= this.scene.end - 1e-9) return this.times.length;
          let lo = 0, hi = this.times.length;
          while (lo < hi) { const mid = (lo + hi) >> 1; if (this.times[mid] < t - 1e-9) lo = mid + 1; else hi = mid; }
          for (let i = lo; i < this.times.length && this.times[i] <= t + 1e-9; i++) {
            const op = this.scene.events[i][1];
            if (op === "i" || op === "k") return i + 1;
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
            const keyframe = this.scene.keyframes[this.keyframeFor(count)];
            state = {
              camera: { lat: keyframe.camera[0], lng: keyframe.camera[1], zoom: keyframe.camera[2], bearing: keyframe.camera[3], tilt: keyframe.camera[4] },
              view: viewOf(keyframe.view),
              markers: new Map(keyframe.markers.map((fields) => { const m = markerOf(fields); return [m.n, m]; })),
              selected: keyframe.selected, window: keyframe.window, overlays: keyframe.overlays, places: keyframe.places,
            };
            for (let i = keyframe.at; i < count; i++) apply(state, this.scene.events[i]);
          }
          this.cache = { count, keyframe: this.keyframeFor(count), state };
          const touches = [];
          for (let i = count - 1; i >= 0 && this.times[i] > t - RIPPLE_SECONDS; i--) {
            const e = this.scene.events[i];
            if (e[1] === "t") touches.push({ kind: e[2], x: e[3], y: e[4], age: Math.max(0, t - e[0]) });
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

      // --- Drawing (SVGRenderer.swift and Layers.swift) ---

      // The drawing a marker's icon shows at t: its number, or for a multi-frame icon
      // [period, n1, n2, ...] frame floor(t / period) mod count (MarkerIcon+Frames.swift, R48).
      function iconOf(scene, m, t) {
        if (!Array.isArray(m.icon)) return scene.icons[m.icon];
        const count = m.icon.length - 1, step = Math.floor(Math.max(t, 0) / m.icon[0] + 1e-9);
        return scene.icons[m.icon[1 + step % count]];
      }

      // A flat marker lies on the ground: under tilt its box is foreshortened by the
      // cosine of the tilt after it is turned (R44), unless the policy draws billboards.
      function squashOf(scene, m, camera) {
        return m.flat && scene.flatFollowsBearing ? Math.cos(camera.tilt * Math.PI / 180) : 1;
      }

      function markerPoint(m, icon, anchor, ux, uy, bearing, squash) {
        const angle = (m.flat ? m.rotation - bearing : m.rotation) * Math.PI / 180;
        const dx = (ux - m.gx) * icon[2], dy = (uy - m.gy) * icon[3];
        const c = Math.cos(angle), s = Math.sin(angle);
        return { x: anchor.x + dx * c - dy * s, y: anchor.y + (dx * s + dy * c) * squash };
      }

      // How far a marker's appear animation has played at t (R45): null once done, else the
      // eased fraction (MarkerAppearance.swift: 1 - (1 - p)^3).
      function appearFraction(scene, m, t) {
        if (!m.appear || !(t < m.appearStart + scene.appearDuration)) return null;
        const rest = 1 - Math.min(Math.max((t - m.appearStart) / scene.appearDuration, 0), 1);
        return 1 - rest * rest * rest;
      }

      // The markers drawn, in drawing order, with their anchors: the core's markers(in:).
      function drawn(scene, state, projection) {
        const bearing = scene.flatFollowsBearing ? state.camera.bearing : 0;
        const out = [];
        for (const m of state.markers.values()) {
          const anchor = projection.pointFor(m.lat, m.lng);
          if (!anchor) continue;
          const icon = iconOf(scene, m, state.t);
          let minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity;
          for (const [ux, uy] of [[0, 0], [1, 0], [0, 1], [1, 1]]) {
            const p = markerPoint(m, icon, anchor, ux, uy, bearing, squashOf(scene, m, state.camera));
            minX = Math.min(minX, p.x); maxX = Math.max(maxX, p.x); minY = Math.min(minY, p.y); maxY = Math.max(maxY, p.y);
          }
          if (maxX >= 0 && minX <= state.view.width && maxY >= 0 && minY <= state.view.height) out.push({ m, anchor });
        }
        out.sort((a, b) => a.m.z - b.m.z || a.m.order - b.m.order);
        return out;
      }

      function escapeXML(text) {
        return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
      }

      // Where the shown window's top-left corner is, or null when it is not drawn.
      function windowOrigin(scene, state, projection) {
        if (state.window < 0) return null;
        const win = scene.windows[state.window];
        let anchor;
        if (win.place) {
          anchor = projection.pointFor(win.place[1], win.place[2]);
        } else {
          const m = state.markers.get(win.marker);
          const ground = m && projection.pointFor(m.lat, m.lng);
          if (!ground) return null;
          const bearing = scene.flatFollowsBearing ? state.camera.bearing : 0;
          anchor = markerPoint(m, iconOf(scene, m, state.t), ground, m.ax, m.ay, bearing, squashOf(scene, m, state.camera));
        }
        return anchor ? { x: anchor.x - win.w / 2, y: anchor.y - win.h, win } : null;
      }

      function render(svg, data, scene, state) {
        const view = state.view, camera = state.camera;
        const projection = new Projection(camera, view);
        const projector = new ShapeProjector(projection);
        const palette = data.palette;
        svg.setAttribute("viewBox", `0 0 ${fmt(view.width, 2)} ${fmt(view.height, 2)}`);
        svg.setAttribute("width", fmt(view.width, 2));
        svg.setAttribute("height", fmt(view.height, 2));
        svg.setAttribute("font-family", palette.fontFamily);
        for (const [key, value] of [["t", state.t], ["lat", camera.lat], ["lng", camera.lng], ["zoom", camera.zoom],
          ["bearing", camera.bearing], ["tilt", camera.tilt]]) svg.setAttribute("data-" + key, fmt(value, 6));
        const c = projector.clip;
        let out = data.definitions;
        out += `<rect class="sea" x="${c.minX}" y="${c.minY}" width="${fmt(c.maxX - c.minX, 2)}" height="${fmt(c.maxY - c.minY, 2)}" fill="${palette.sea}"/>`;
        let land = "";
        for (const ring of data.land) for (const k of projector.copies(ring)) land += projector.path(ring, k, 1);
        out += `<path class="land" d="${land}" fill="${palette.land}" fill-rule="evenodd" stroke="${palette.border}" stroke-width="0.8" stroke-linejoin="round"/>`;
        out += `<path class="graticule" d="${graticule(projector).map((line) => projector.path(line, 0, 1)).join("")}" fill="none" stroke="${palette.graticule}" stroke-opacity=".35" stroke-width="0.7"/>`;
        const cities = cityLabels(data.cities, projection);
        if (cities.length) {
          out += `<g class="cities" font-size="11" fill="${palette.cityText}">`;
          for (const { city, p } of cities) {
            out += `<g class="city" transform="translate(${fmt(p.x, 2)} ${fmt(p.y, 2)})"><circle r="2.5" fill="${palette.cityText}" stroke="#FFF" stroke-width="1"/><text x="5" y="4" stroke="#FFF" stroke-width="2.5" stroke-linejoin="round" paint-order="stroke">${escapeXML(city.name)}</text></g>`;
          }
          out += `</g>`;
        }
        const overlays = scene.overlays[state.overlays] || [];
        if (overlays.length) {
          out += `<g class="overlays">`;
          for (const overlay of overlays) {
            if (!overlay.shapes.length) continue;
            if (!overlay.prepared) overlay.prepared = overlay.shapes.map((s) => shape(s.points, s.closed));
            const offset = projector.nearestCopy(overlay.prepared[0]);
            const d = overlay.prepared.map((s) => projector.path(s, offset, 2)).join("");
            if (!d) continue;
            out += `<g class="overlay" data-id="${escapeXML(overlay.id)}" data-kind="${overlay.kind}"><path d="${d}"${overlay.paint}/>`;
            if (overlay.label) {
              const corners = projector.screenPoints(overlay.prepared[0], offset);
              if (corners.length) {
                const x = corners.reduce((s, p) => s + p.x, 0) / corners.length, y = corners.reduce((s, p) => s + p.y, 0) / corners.length;
                out += label(overlay.label, x - 60, y - 10, 120, 20, palette);
              }
            }
            out += `</g>`;
          }
          out += `</g>`;
        }
        const places = scene.places[state.places];
        if (places) {
          const pois = places.pois.map((poi) => [poi, projection.pointFor(poi[2], poi[3])])
            .filter(([, p]) => p && p.x >= -40 && p.x < view.width + 40 && p.y >= -20 && p.y < view.height + 20);
          if (pois.length) {
            out += `<g class="pois">`;
            for (const [poi, p] of pois) {
              out += `<g class="poi" data-place-id="${escapeXML(poi[0])}" transform="translate(${fmt(p.x, 2)} ${fmt(p.y, 2)})"><circle r="5" fill="#34A853" stroke="#FFF" stroke-width="1.5"/><text x="8" y="4" font-size="11" fill="#188038" stroke="#FFF" stroke-width="3" stroke-linejoin="round" paint-order="stroke">${escapeXML(poi[1])}</text></g>`;
            }
            out += `</g>`;
          }
          const me = places.me && projection.pointFor(places.me[0], places.me[1]);
          if (me) {
            out += `<g class="my-location" transform="translate(${fmt(me.x, 2)} ${fmt(me.y, 2)})"><circle r="18" fill="${palette.accent}" fill-opacity=".16"/><circle r="7.5" fill="${palette.accent}" stroke="#FFF" stroke-width="2.5"/></g>`;
          }
        }
        out += `<g class="markers">`;
        const bearing = scene.flatFollowsBearing ? camera.bearing : 0;
        for (const { m, anchor } of drawn(scene, state, projection)) {
          const icon = iconOf(scene, m, state.t);
          const angle = m.flat ? m.rotation - bearing : m.rotation;
          const selected = m.n === state.selected;
          out += `<g class="marker" data-id="${escapeXML(m.id)}" data-x="${fmt(anchor.x, 2)}" data-y="${fmt(anchor.y, 2)}"`;
          if (selected) out += ` data-selected="true"`;
          out += ` transform="translate(${fmt(anchor.x, 2)} ${fmt(anchor.y, 2)})`;
          const squash = squashOf(scene, m, camera), appearing = appearFraction(scene, m, state.t);
          if (squash !== 1) out += ` scale(1 ${fmt(squash, 4)})`;
          if (angle % 360 !== 0) out += ` rotate(${fmt(angle, 4)})`;
          if (appearing !== null && m.appear === 1) out += ` scale(${fmt(appearing, 4)})`;
          out += ` translate(${fmt(-((icon[4] || 0) + m.gx * icon[2]), 4)} ${fmt(-((icon[5] || 0) + m.gy * icon[3]), 4)})"`;
          const opacity = m.opacity * (appearing !== null && m.appear === 2 ? appearing : 1);
          if (opacity < 1) out += ` opacity="${fmt(opacity, 3)}"`;
          out += `>${selected ? icon[1] : icon[0]}</g>`;
        }
        out += `</g>`;
        const origin = windowOrigin(scene, state, projection);
        if (origin) {
          const win = origin.win, transform = `translate(${fmt(origin.x, 2)} ${fmt(origin.y, 2)})`;
          out += `<g class="info-window" data-marker="${escapeXML(win.id || "")}" data-kind="${win.kind}"`;
          if (win.place) out += ` data-place-id="${escapeXML(win.place[0])}"`;
          out += ` transform="${transform}">${win.body}</g>`;
          if (win.labels) out += `<g class="info-window-labels" transform="${transform}">${win.labels}</g>`;
        }
        if (state.touches && state.touches.length) {
          out += `<g class="touches">`;
          for (const touch of state.touches) {
            const progress = Math.min(touch.age / RIPPLE_SECONDS, 1);
            out += `<circle class="ripple" data-kind="${touch.kind}" cx="${fmt(touch.x, 2)}" cy="${fmt(touch.y, 2)}" r="${fmt(6 + 26 * progress, 2)}" fill="${palette.accent}" fill-opacity="${fmt(0.25 * (1 - progress), 3)}" stroke="${palette.accent}" stroke-width="2" stroke-opacity="${fmt(1 - progress, 3)}"/>`;
            out += `<circle cx="${fmt(touch.x, 2)}" cy="${fmt(touch.y, 2)}" r="3" fill="${palette.accent}" fill-opacity="${fmt(1 - progress, 3)}"/>`;
          }
          out += `</g>`;
        }
        svg.innerHTML = out;
      }

      function label(text, x, y, width, height, palette) {
        const fontSize = Math.min(11, Math.max(6, height * 0.45));
        const fitting = Math.floor((width - 4) / (fontSize * 0.6));
        if (fitting < 1 || !text) return "";
        const chars = Array.from(text);
        const shown = chars.length <= fitting ? text : chars.slice(0, Math.max(1, fitting - 1)).join("") + "\u2026";
        return `<text class="label" x="${fmt(x + width / 2, 2)}" y="${fmt(y + height / 2 + fontSize * 0.35, 2)}" font-size="${fmt(fontSize, 2)}" text-anchor="middle" fill="${palette.secondaryText}">${escapeXML(shown)}</text>`;
      }

      // What render() draws, as waymarkReplay.state() reports it.
      function describe(scene, state) {
        const projection = new Projection(state.camera, state.view);
        const origin = windowOrigin(scene, state, projection);
        return {
          t: state.t,
          camera: { ...state.camera },
          markers: drawn(scene, state, projection).map(({ m, anchor }) => ({ id: m.id, x: anchor.x, y: anchor.y })),
          infoWindow: origin ? { marker: origin.win.id, kind: origin.win.kind, text: origin.win.text } : null,
        };
      }

      return { Projection, Timeline, decodeLand, decodeCities, render, describe, worldPoint };
    })();
    """#
}
