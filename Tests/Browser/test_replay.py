#!/usr/bin/env python3
"""The HTML replay in a real browser (headless Chromium through chromium-driver and Selenium).

For every demo in scripts/: run it with a probe plugin (Tests/Browser/probe) that prints
where map:point_for puts each marker at every idle camera and what the shown window says;
write its SVG snapshots and its replay; open the replay and, at every idle camera, check that
waymarkReplay.state() puts every marker within 1 pt of map:point_for, shows the window with
the plugin's text, and agrees with the SVG snapshot of that moment; check a screenshot is not
blank, that playing advances time, that clicking a trace line seeks there, that #t= opens at
that time, and that the page logged no error.

    python3 Tests/Browser/test_replay.py [WAYMARK] [DEMO...]
"""
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
import zlib

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SVG = "{http://www.w3.org/2000/svg}"
failures = []
worst = [0.0]  # the largest distance between a replay marker and map:point_for, in points


def check(condition, message):
    if not condition:
        failures.append(message)
        print("  FAIL " + message)
    return condition


def browser():
    options = Options()
    options.binary_location = shutil.which("chromium") or shutil.which("chromium-browser")
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1280,900", "--force-device-scale-factor=1"]:
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(options=options, service=Service(shutil.which("chromedriver")))


def png_colours(data):
    """The distinct colours of a PNG (8-bit RGB or RGBA, not interlaced), sampled."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            channels = {2: 3, 6: 4}[colour]
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw, stride = zlib.decompress(idat), width * channels
    previous, colours = bytearray(stride), set()
    for row in range(height):
        line = raw[row * (stride + 1):(row + 1) * (stride + 1)]
        kind, line = line[0], bytearray(line[1:])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b, c = previous[i], previous[i - channels] if i >= channels else 0
            if kind == 1: line[i] = (line[i] + a) & 255
            elif kind == 2: line[i] = (line[i] + b) & 255
            elif kind == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        if row % 7 == 0:
            for x in range(0, width, 5):
                colours.add(bytes(line[x * channels:x * channels + 3]))
        previous = line
    return colours


def probes(trace):
    """The probe's reports, by map: [{"idles": [(t, {id: (x, y)}, window)]}]."""
    maps = []
    for record in trace:
        if record["event"] == "plugin_loaded" and record.get("plugin") == "probe":
            maps.append([])
        if record["event"] != "log" or record.get("plugin") != "probe":
            continue
        fields = record["message"].split("\t")
        if fields[0] == "probe":
            points = {}
            for part in fields[2:]:
                name, _, xy = part.rpartition("=")
                x, y = xy.split(",")
                points[name] = (float(x), float(y))
            maps[-1].append({"t": float(fields[1]), "points": points, "window": None})
        elif fields[0] == "window":
            maps[-1][-1]["window"] = {"marker": fields[2], "kind": fields[3], "text": fields[4] if len(fields) > 4 else ""}
    return maps


def final_windows(trace):
    """By map: the marker whose window the trace leaves open at the map's end (None: no window)."""
    windows = []
    for record in trace:
        if record["event"] == "plugin_loaded" and record.get("plugin") == "probe":
            windows.append(None)
        elif record["event"] == "info_window_shown" and windows:
            windows[-1] = record.get("marker")
        elif record["event"] == "info_window_hidden" and windows:
            windows[-1] = None
    return windows


def words(text):
    return " ".join(text.split())


def snapshot_state(path):
    """What an SVG snapshot draws: markers [(id, x, y)] and the window (marker, kind, text)."""
    root = ET.parse(path).getroot()
    markers = [(g.get("data-id"), float(g.get("data-x")), float(g.get("data-y")))
               for g in root.iter(SVG + "g") if g.get("class") == "marker"]
    window = next((g for g in root.iter(SVG + "g") if g.get("class") == "info-window"), None)
    if window is not None:
        window = (window.get("data-marker"), window.get("data-kind"),
                  "\n".join(t.text or "" for t in window.iter(SVG + "text")))
    return float(root.get("data-t")), markers, window


def test_demo(driver, waymark, demo, folder):
    print(demo)
    html = os.path.join(folder, demo + ".html")
    pictures = os.path.join(folder, demo)
    run = subprocess.run(
        [waymark, "run", os.path.join("scripts", demo + ".lua"), "--plugins", "Tests/Browser/probe",
         "--trace", "json", "--budget", "2000", "--snapshots", pictures, "--html", html],
        cwd=ROOT, capture_output=True, text=True)
    if not check(run.returncode == 0, f"{demo}: waymark run exited {run.returncode}: {run.stderr}"):
        return
    trace = [json.loads(line) for line in run.stdout.splitlines()]
    reports = probes(trace)
    snapshots = sorted(name for name in os.listdir(pictures) if name.endswith("-idle.svg"))
    idles = [(scene, report) for scene, scene_reports in enumerate(reports) for report in scene_reports]
    check(len(snapshots) == len(idles), f"{demo}: {len(snapshots)} idle snapshots for {len(idles)} idle cameras")

    first = idles[0][1]["t"] if idles and idles[0][0] == 0 else 0
    driver.get("file://" + html + f"#t={first}")
    check(abs(driver.execute_script("return waymarkReplay.time") - first) < 1e-9, f"{demo}: #t={first} opens there")
    replay = "window.waymarkReplay"
    scene_now = 0
    for index, (scene, report) in enumerate(idles):
        if scene != scene_now:
            driver.execute_script(f"{replay}.scene({scene})")
            scene_now = scene
        state = driver.execute_script(f"{replay}.seek({report['t']}); return {replay}.state()")
        where = f"{demo} map {scene + 1} at {report['t']}"
        check(set(state) == {"t", "camera", "markers", "infoWindow"}, f"{where}: state() keys {sorted(state)}")
        check(abs(state["t"] - report["t"]) < 1e-9, f"{where}: state().t is {state['t']}")
        size = driver.execute_script("const s = document.getElementById('map'); return [s.viewBox.baseVal.width, s.viewBox.baseVal.height]")
        for marker in state["markers"]:
            expected = report["points"].get(marker["id"])
            if check(expected is not None, f"{where}: {marker['id']} is drawn but not on the map"):
                worst[0] = max(worst[0], abs(marker["x"] - expected[0]), abs(marker["y"] - expected[1]))
                check(abs(marker["x"] - expected[0]) <= 1 and abs(marker["y"] - expected[1]) <= 1,
                      f"{where}: {marker['id']} at ({marker['x']:.3f}, {marker['y']:.3f}), point_for says {expected}")
        drawn = {m["id"] for m in state["markers"]}
        for name, (x, y) in report["points"].items():
            if 0 <= x <= size[0] and 0 <= y <= size[1]:
                check(name in drawn, f"{where}: {name} stands in the view at ({x}, {y}) but is not drawn")
        window = report["window"]
        # An idle at the scene's end followed by more at that time (a closing tap) shows the end:
        # the check after this loop.
        at_end = abs(report["t"] - driver.execute_script(f"return {replay}.duration")) < 1e-9
        if window and not at_end:
            shown = state["infoWindow"]
            if check(shown is not None, f"{where}: the window of {window['marker']} is not drawn"):
                check(shown["marker"] == window["marker"] and shown["kind"] == window["kind"],
                      f"{where}: window {shown['marker']} {shown['kind']}, expected {window['marker']} {window['kind']}")
                check(words(shown["text"]) == words(window["text"]),
                      f"{where}: window text {shown['text']!r}, the plugin's is {window['text']!r}")
        elif not at_end:
            check(state["infoWindow"] is None, f"{where}: a window is drawn but none is shown")
        if index < len(snapshots):
            t, markers, svg_window = snapshot_state(os.path.join(pictures, snapshots[index]))
            check(abs(t - report["t"]) < 1e-6, f"{where}: snapshot {snapshots[index]} is at {t}")
            check([m[0] for m in markers] == [m["id"] for m in state["markers"]],
                  f"{where}: the snapshot draws {[m[0] for m in markers]}, the replay {[m['id'] for m in state['markers']]}")
            for (name, x, y), marker in zip(markers, state["markers"]):
                check(abs(x - marker["x"]) <= 0.02 and abs(y - marker["y"]) <= 0.02, f"{where}: {name} differs from the snapshot")
            replay_window = state["infoWindow"] and (state["infoWindow"]["marker"], state["infoWindow"]["kind"], state["infoWindow"]["text"])
            check(at_end or svg_window == replay_window, f"{where}: the snapshot's window {svg_window} vs the replay's {replay_window}")
        # The DOM holds what state() reports.
        dom = driver.execute_script("return Array.from(document.querySelectorAll('#map g.marker')).map(g => g.dataset.id)")
        check(dom == [m["id"] for m in state["markers"]], f"{where}: the DOM draws {dom}")

    # The end of each scene shows the map as the trace leaves it: the window the last
    # info_window_shown opened, unless an info_window_hidden closed it (the marker-events demo's
    # closing tap comes at the time its camera came to rest).
    scenes = driver.execute_script(f"return {replay}.scenes.length")
    for scene, last_window in enumerate(final_windows(trace)[:scenes]):
        state = driver.execute_script(f"{replay}.scene({scene}); {replay}.seek({replay}.duration); return {replay}.state()")
        shown = state["infoWindow"] and state["infoWindow"]["marker"]
        check(shown == last_window, f"{demo} map {scene + 1} at its end: window {shown}, the trace leaves {last_window}")
    driver.execute_script(f"{replay}.scene(0)")

    # A screenshot of the map is a picture, not a blank.
    colours = png_colours(driver.find_element(By.ID, "map").screenshot_as_png)
    check(len(colours) >= 4, f"{demo}: the map's screenshot has {len(colours)} colours")
    # Playing advances virtual time.
    driver.execute_script(f"{replay}.scene(0); {replay}.seek(0); {replay}.play()")
    time.sleep(0.4)
    played = driver.execute_script(f"const t = {replay}.time; {replay}.pause(); return t")
    duration = driver.execute_script(f"return {replay}.duration")
    check(played > 0.1 or duration < 0.2, f"{demo}: after 0.4 s of play, time is {played}")
    # Clicking a line of the trace seeks to its time.
    lines = driver.find_elements(By.CSS_SELECTOR, "#records li.record:not(.tile)")
    check(len(lines) > 0, f"{demo}: the trace has no lines")
    if lines:
        line = lines[len(lines) * 2 // 3]
        driver.execute_script("arguments[0].scrollIntoView()", line)
        line.click()
        expected = float(line.get_attribute("data-t"))
        now = driver.execute_script(f"return {replay}.state().t")
        check(abs(now - expected) < 1e-9, f"{demo}: clicking the line at {expected} seeks to {now}")
    for entry in driver.get_log("browser"):
        check(entry["level"] not in ("SEVERE",), f"{demo}: the page logged {entry['message']}")


def main():
    waymark = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build/debug/waymark")
    demos = sys.argv[2:] or sorted(name[:-4] for name in os.listdir(os.path.join(ROOT, "scripts")) if name.endswith(".lua"))
    started = time.time()
    driver = browser()
    try:
        with tempfile.TemporaryDirectory(prefix="waymark-browser-") as folder:
            for demo in demos:
                test_demo(driver, waymark, demo, folder)
    finally:
        driver.quit()
    print(f"browser tests: {len(demos)} demos, {len(failures)} failure(s), {time.time() - started:.1f} s;"
          f" markers within {worst[0]:.4f} pt of map:point_for (printed to 4 decimals)")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
