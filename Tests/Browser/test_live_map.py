#!/usr/bin/env python3
"""The live map in a real browser (headless Chromium through Selenium).

Starts `waymark serve` on a free port with a window plugin, opens the page, clicks a marker's
screen point and reads the plugin's info window on the page; edits the plugin, clicks again
and sees the new text without reloading the page, with the tap count carried by on_reload;
breaks the plugin, sees the error on the page and the old text still answering.

Run by scripts/test.sh after the Swift tests: python3 Tests/Browser/test_live_map.py WAYMARK
"""

import os
import shutil
import subprocess
import sys
import tempfile
import unittest

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

WAYMARK = os.path.abspath(sys.argv.pop(1) if len(sys.argv) > 1 else ".build/debug/waymark")
# A bound only so that a broken page fails instead of hanging; no assertion is about time.
PATIENCE = 60


def window_plugin(label):
    return f"""
local p = {{ name = "window" }}
local taps = 0
function p.did_tap_marker(map, marker) taps = taps + 1 end
function p.marker_info_window(map, marker) return "{label} taps=" .. taps end
function p.save_state() return {{ taps = taps }} end
function p.on_reload(old, map) taps = old.taps end
return p
"""


SCRIPT = """
local map = waymark.map{ camera = { target = { lat = 48.8584, lng = 2.2945 }, zoom = 12 }, plugins = { "plugins" } }
map:add_marker{ id = "tower", position = { lat = 48.8584, lng = 2.2945 }, title = "Tower" }
map.compass_button = true
"""


class LiveMapInABrowser(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.mkdtemp(prefix="waymark-browser-")
        os.mkdir(os.path.join(self.folder, "plugins"))
        self.write("plugins/window.lua", window_plugin("v1"))
        self.write("demo.lua", SCRIPT)
        self.server = subprocess.Popen(
            [WAYMARK, "serve", "demo.lua", "--port", "0"], cwd=self.folder,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.server.stdout.readline().strip()
        self.assertTrue(line.startswith("serving http://127.0.0.1:"), f"printed: {line!r}")
        self.url = line.split(" ", 1)[1]
        options = Options()
        for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1400,1100"):
            options.add_argument(argument)
        driver_path = shutil.which("chromedriver") or "/usr/bin/chromedriver"
        self.browser = webdriver.Chrome(options=options, service=Service(driver_path))

    def tearDown(self):
        self.browser.quit()
        self.server.terminate()
        _, errors = self.server.communicate(timeout=PATIENCE)
        self.assertEqual(self.server.returncode, 0, errors)
        shutil.rmtree(self.folder)

    def write(self, name, text):
        # Write then rename, as editors do: the server never reads half a file.
        path = os.path.join(self.folder, name)
        with open(path + ".tmp", "w") as file:
            file.write(text)
        os.replace(path + ".tmp", path)

    def wait_for(self, script, why):
        """Waits until the JavaScript expression is truthy; returns its value."""
        return WebDriverWait(self.browser, PATIENCE).until(
            lambda browser: browser.execute_script(f"return {script}"), why)

    def click_map(self, x, y):
        """Clicks the map's screen point (x, y), in the map's own points (the picture is
        redrawn often, so the point is found and clicked without holding an element)."""
        where = self.browser.execute_script(
            "const svg = document.querySelector('#map svg'), r = svg.getBoundingClientRect();"
            "return [r.left + arguments[0] * r.width / svg.viewBox.baseVal.width,"
            " r.top + arguments[1] * r.height / svg.viewBox.baseVal.height];", x, y)
        actions = ActionBuilder(self.browser)
        actions.pointer_action.move_to_location(int(round(where[0])), int(round(where[1])))
        actions.pointer_action.click()
        actions.perform()

    def tap_marker(self):
        x, y = self.wait_for(
            "(() => { const m = document.querySelector('#map g.marker[data-id=\"tower\"]');"
            " return m && [Number(m.dataset.x), Number(m.dataset.y)]; })()", "the marker is drawn")
        self.click_map(x, y - 12)  # the icon stands above its anchor

    def window_text(self, expected):
        return self.wait_for(
            f"(() => {{ const w = document.querySelector('#map g.info-window');"
            f" return w && w.textContent.includes({expected!r}) && w.textContent; }})()",
            f"the info window says {expected}")

    def close_window(self):
        self.click_map(20, 20)
        self.wait_for("!document.querySelector('#map g.info-window')", "the window closed")

    def test_click_edit_click_break_click(self):
        self.browser.get(self.url)
        self.browser.execute_script("window.sameDocument = true")

        self.tap_marker()
        self.assertIn("v1 taps=1", self.window_text("v1 taps=1"))
        self.close_window()

        self.write("plugins/window.lua", window_plugin("v2"))
        self.wait_for("document.getElementById('reload').textContent.includes('window reloaded')",
                      "the page says the plugin reloaded")
        self.wait_for("document.getElementById('plugins').textContent.includes('v2')",
                      "the page shows version 2 live")
        self.tap_marker()
        self.window_text("v2 taps=2")  # the new text, the count carried by on_reload
        self.assertTrue(self.browser.execute_script("return window.sameDocument === true"),
                        "the page was not reloaded")
        self.close_window()

        self.write("plugins/window.lua", "local p = {}\nfunction p.marker_info_window(\nreturn p\n")
        error = self.wait_for(
            "(() => { const e = document.getElementById('errors').textContent;"
            " return e.includes('window.lua:3:') && e; })()", "the page shows the error with file:line")
        self.assertIn("reload", error)
        self.assertIn("still answers", self.browser.find_element(By.ID, "plugins").text)
        self.tap_marker()
        self.window_text("v2 taps=3")  # the old version still answers

    def test_shift_drag_rotates_and_the_compass_turns_north(self):
        """R69: the compass shows while the map is rotated; clicking it turns the map north."""
        self.browser.get(self.url)
        self.wait_for("document.querySelector('#map svg')", "the map is drawn")
        self.assertFalse(self.browser.execute_script("return !!document.querySelector('#map g.compass')"),
                         "no compass while the map faces north")
        svg = self.browser.execute_script(
            "const r = document.querySelector('#map svg').getBoundingClientRect();"
            " return [r.left + r.width / 2, r.top + r.height / 2, r.width];")
        actions = ActionBuilder(self.browser)
        actions.key_action.key_down(Keys.SHIFT)
        actions.pointer_action.move_to_location(int(svg[0]), int(svg[1]))
        actions.pointer_action.pointer_down()
        for step in range(1, 9):
            actions.pointer_action.move_to_location(int(svg[0] + step * 10), int(svg[1]))
        actions.pointer_action.pointer_up()
        actions.key_action.key_up(Keys.SHIFT)
        actions.perform()
        bearing = self.wait_for(
            "(() => { const c = document.querySelector('#map g.compass');"
            " return c && Number(c.dataset.bearing); })()", "the rotated map shows its compass")
        self.assertNotEqual(bearing, 0)
        where = self.browser.execute_script(
            "const r = document.querySelector('#map g.compass circle').getBoundingClientRect();"
            " return [r.left + r.width / 2, r.top + r.height / 2];")
        actions = ActionBuilder(self.browser)
        actions.pointer_action.move_to_location(int(where[0]), int(where[1]))
        actions.pointer_action.click()
        actions.perform()
        self.wait_for("!document.querySelector('#map g.compass')", "the map turned north and the compass hid")
        trace = self.browser.find_element(By.ID, "trace").text
        self.assertNotIn("did_tap_at_coordinate", trace, "the click went to the compass, not the map")


if __name__ == "__main__":
    unittest.main(verbosity=2)
