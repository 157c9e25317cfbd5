/// The replay page's geometry (JavaScript, inside `WaymarkDraw`): the core's Mercator and
/// ``Projection`` ported operation by operation, so that a point stands where
/// `map:point_for` says; the land, cities and graticule of the base map; and
/// ``ShapeProjector``'s clipping and path writing. Everything here is space, not drawing:
/// what is drawn comes from Swift (``MarkerSprite``, ``SceneWindow``, ``SceneOverlay``).
enum ProjectionScript {
  /// The script's source, the body of a function that `MapDrawingScript` closes.
  static let source = #"""
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

    // A number as SVGBuffer.number writes it: rounded half away from zero to `decimals`.
    function fmt(value, decimals) {
      const scale = Math.pow(10, decimals);
      const rounded = Math.sign(value) * Math.round(Math.abs(value) * scale) / scale;
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
    """#
}
