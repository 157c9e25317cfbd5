/// The replay page's `render(svg, data, scene, state)` (JavaScript, inside `WaymarkDraw`):
/// the layers of ``SVGRenderer`` in its order, each drawing Swift made placed with the
/// projection: the base map, overlays, places, markers (``MarkerSprite``s placed as
/// ``MarkerPlacement`` places them), the window, and the ripples of recent touches.
enum MapRenderScript {
  /// The script's source, a part of the function `MapDrawingScript` closes.
  static let source = #"""
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
      const overlays = scene.library.overlays[state.overlays] || [];
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
      const places = scene.library.places[state.places];
      if (places) {
        const pois = places.pois.map((poi) => [poi, projection.pointFor(poi.lat, poi.lng)])
          .filter(([, p]) => p && p.x >= -40 && p.x < view.width + 40 && p.y >= -20 && p.y < view.height + 20);
        if (pois.length) {
          out += `<g class="pois">`;
          for (const [poi, p] of pois) {
            out += `<g class="poi" data-place-id="${escapeXML(poi.id)}" transform="translate(${fmt(p.x, 2)} ${fmt(p.y, 2)})"><circle r="5" fill="#34A853" stroke="#FFF" stroke-width="1.5"/><text x="8" y="4" font-size="11" fill="#188038" stroke="#FFF" stroke-width="3" stroke-linejoin="round" paint-order="stroke">${escapeXML(poi.name)}</text></g>`;
          }
          out += `</g>`;
        }
        const me = places.me && projection.pointFor(places.me.lat, places.me.lng);
        if (me) {
          out += `<g class="my-location" transform="translate(${fmt(me.x, 2)} ${fmt(me.y, 2)})"><circle r="18" fill="${palette.accent}" fill-opacity=".16"/><circle r="7.5" fill="${palette.accent}" stroke="#FFF" stroke-width="2.5"/></g>`;
        }
      }
      out += `<g class="markers">`;
      for (const { m, p } of drawn(scene, state, projection)) {
        out += markerMarkup(m, spriteOf(scene, m, state.t), p, m.n === state.selected);
      }
      out += `</g>`;
      const origin = windowOrigin(scene, state, projection);
      if (origin) {
        const win = origin.win, transform = `translate(${fmt(origin.x, 2)} ${fmt(origin.y, 2)})`;
        out += `<g class="info-window" data-marker="${escapeXML(win.id || "")}" data-kind="${win.kind}"`;
        if (win.place) out += ` data-place-id="${escapeXML(win.place.id)}"`;
        out += ` transform="${transform}">${win.body}</g>`;
        if (win.labels) out += `<g class="info-window-labels" transform="${transform}">${win.labels}</g>`;
      }
      if (view.compass && camera.bearing !== 0) {
        out += `<g class="compass" data-bearing="${fmt(camera.bearing, 6)}" transform="translate(${fmt(view.width - view.right - 30, 2)} ${fmt(view.top + 30, 2)})"><circle r="18" fill="#FFF" stroke="#000" stroke-opacity=".2"/><g transform="rotate(${fmt(-camera.bearing, 2)})"><path d="M0 -13L5 0H-5Z" fill="#EA4335"/><path d="M0 13L5 0H-5Z" fill="#9AA0A6"/></g></g>`;
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
    """#
}
