#!/usr/bin/env python3
"""A soak of the live map: `waymark serve` under inputs and event streams for a while, its
resident memory sampled throughout (docs/serve.md, "Soak").

    python3 scripts/serve-soak.py [--minutes 15] [--waymark .build/debug/waymark]

It serves a map of 200 markers with a plugin that answers windows and logs, then, until the
time is up:

- an input driver posts taps, long presses, pans, pinches, rotations and `advance`s (camera
  frames: hundreds of records a second);
- fast readers read `/events` as it comes and reconnect every few seconds with
  `Last-Event-ID`, or from the start (`?since=0`);
- slow readers read a little at a time, so their queue is never empty and now and then
  overflows (`dropped`), then reconnect where they stopped;
- stalled readers open `/events` and read nothing until the server drops them.

It prints the server's resident memory (VmRSS) every 30 s, then at the start (after one
minute of warm-up), the middle and the end, and exits 1 when the end is more than 16 MiB
above the start (memory that grows with time), or the server stopped answering. It is not
part of scripts/test.sh: it is long. No assertion is about time.
"""

import argparse
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

SCRIPT = """
local map = waymark.map{ camera = { target = { lat = 48.85, lng = 2.35 }, zoom = 12 }, plugins = { "plugins" } }
for i = 1, 200 do
  map:add_marker{ id = "m" .. i, position = { lat = 48.80 + (i % 20) * 0.005, lng = 2.30 + (i // 20) * 0.01 },
                  title = "Marker " .. i, draggable = i % 2 == 0 }
end
"""

PLUGIN = """
local p = { name = "soak" }
local taps = 0
function p.did_tap_marker(map, marker) taps = taps + 1; map:log("tap " .. marker.id .. " " .. taps) end
function p.marker_info_window(map, marker) return marker.title .. " taps=" .. taps end
function p.did_long_press_at_coordinate(map, coordinate) map:log(string.rep("x", 2000)) end
function p.save_state() return { taps = taps } end
function p.on_reload(old, map) taps = old and old.taps or 0 end
return p
"""

WARM_UP = 60
SAMPLE_EVERY = 30
ALLOWED_GROWTH = 16 << 20


def resident_bytes(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


class Soak:
    def __init__(self, waymark, seconds):
        self.seconds = seconds
        self.folder = tempfile.mkdtemp(prefix="waymark-soak-")
        os.mkdir(os.path.join(self.folder, "plugins"))
        with open(os.path.join(self.folder, "demo.lua"), "w") as file:
            file.write(SCRIPT)
        with open(os.path.join(self.folder, "plugins", "soak.lua"), "w") as file:
            file.write(PLUGIN)
        self.server = subprocess.Popen(
            [waymark, "serve", "demo.lua", "--port", "0"], cwd=self.folder,
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.server.stdout.readline().strip()
        if not line.startswith("serving http://127.0.0.1:"):
            raise SystemExit(f"waymark serve did not start: {line!r}")
        self.url = line.split(" ", 1)[1]
        self.port = int(self.url.split(":")[2].split("/")[0])
        self.token = self.url.split("token=")[1]
        self.stop = threading.Event()
        self.counts = {"inputs": 0, "failed inputs": 0, "connections": 0, "events": 0, "dropped": 0, "missed": 0}
        self.lock = threading.Lock()

    def count(self, key, amount=1):
        with self.lock:
            self.counts[key] += amount

    def post(self, body):
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.port}/input?token={self.token}", data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"}, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=60) as answer:
                answer.read()
            self.count("inputs")
        except Exception:
            self.count("failed inputs")

    def state(self):
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/state?token={self.token}", timeout=60) as answer:
            return json.loads(answer.read())

    # --- Inputs ---

    def drive(self, seed):
        rng = random.Random(seed)
        while not self.stop.is_set():
            kind = rng.choice(["tap", "tap", "long_press", "pan", "pinch", "rotate", "advance", "tap_marker"])
            if kind == "tap_marker":
                markers = self.state().get("markers", [])
                if markers:
                    marker = rng.choice(markers)
                    self.post({"kind": "tap", "x": marker["x"], "y": marker["y"] - 10})
                continue
            if kind in ("tap", "long_press"):
                self.post({"kind": kind, "x": rng.uniform(0, 390), "y": rng.uniform(0, 844)})
            elif kind == "pan":
                self.post({"kind": "pan", "dx": rng.uniform(-200, 200), "dy": rng.uniform(-200, 200), "duration": 1})
            elif kind == "pinch":
                self.post({"kind": "pinch", "zoom_by": rng.uniform(-1, 1), "duration": 1})
            elif kind == "rotate":
                self.post({"kind": "rotate", "degrees": rng.uniform(-90, 90), "duration": 1})
            else:
                self.post({"kind": "advance", "seconds": rng.uniform(0.5, 5)})
            time.sleep(rng.uniform(0.005, 0.05))

    # --- Readers ---

    def open_events(self, last_id, since_start, small_buffer=False):
        connection = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if small_buffer:  # the kernel's buffers would hide a lagging reader for minutes
            connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 16384)
        connection.settimeout(30)
        connection.connect(("127.0.0.1", self.port))
        query = f"/events?token={self.token}" + ("&since=0" if since_start else "")
        head = f"GET {query} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\nAccept: text/event-stream\r\n"
        if last_id is not None:
            head += f"Last-Event-ID: {last_id}\r\n"
        connection.sendall((head + "\r\n").encode())
        self.count("connections")
        return connection

    def read_events(self, connection, until, chunk, pause, last_id):
        """Reads until `until` (a monotonic time), `chunk` bytes at a time with `pause` seconds
        between reads; the last event id seen, and whether the server ended the stream."""
        pending = b""
        while time.monotonic() < until and not self.stop.is_set():
            try:
                data = connection.recv(chunk)
            except socket.timeout:
                continue
            except OSError:
                return last_id, True
            if not data:
                return last_id, True
            pending += data
            # Events end with a blank line (the chunked framing's lines are skipped).
            while b"\n\n" in pending:
                block, pending = pending.split(b"\n\n", 1)
                for line in block.split(b"\n"):
                    if line.startswith(b"id: "):
                        try:
                            last_id = int(line[4:])
                        except ValueError:
                            pass
                        self.count("events")
                    elif line.startswith(b"event: dropped"):
                        self.count("dropped")
                    elif line.startswith(b"event: missed"):
                        self.count("missed")
            if pause:
                time.sleep(pause)
        return last_id, False

    def fast_reader(self, seed):
        rng = random.Random(seed)
        last_id = None
        while not self.stop.is_set():
            connection = self.open_events(last_id, since_start=rng.random() < 0.3)
            last_id, _ = self.read_events(connection, time.monotonic() + rng.uniform(2, 20), 65536, 0, last_id)
            connection.close()

    def slow_reader(self, seed):
        rng = random.Random(seed)
        last_id = None
        while not self.stop.is_set():
            connection = self.open_events(last_id, since_start=last_id is None, small_buffer=True)
            pause = rng.uniform(0.005, 0.05)  # 10 to 100 KB a second: about what the map makes, or less
            last_id, _ = self.read_events(connection, time.monotonic() + rng.uniform(20, 90), 512, pause, last_id)
            connection.close()

    def stalled_reader(self, seed):
        rng = random.Random(seed)
        while not self.stop.is_set():
            connection = self.open_events(None, since_start=True, small_buffer=True)
            self.stop.wait(rng.uniform(10, 60))
            connection.close()

    # --- The run ---

    def run(self):
        threads = [threading.Thread(target=self.drive, args=(seed,), daemon=True) for seed in range(3)]
        threads += [threading.Thread(target=self.fast_reader, args=(100 + seed,), daemon=True) for seed in range(6)]
        threads += [threading.Thread(target=self.slow_reader, args=(200 + seed,), daemon=True) for seed in range(4)]
        threads += [threading.Thread(target=self.stalled_reader, args=(300 + seed,), daemon=True) for seed in range(3)]
        for thread in threads:
            thread.start()
        samples = []
        started = time.monotonic()
        while True:
            elapsed = time.monotonic() - started
            if self.server.poll() is not None:
                print(f"the server exited with status {self.server.returncode}")
                return 1
            samples.append((elapsed, resident_bytes(self.server.pid)))
            with self.lock:
                counts = ", ".join(f"{value} {key}" for key, value in self.counts.items())
            print(f"{elapsed:7.0f} s  VmRSS {samples[-1][1] / 2**20:7.1f} MiB  ({counts})", flush=True)
            if elapsed >= self.seconds:
                break
            time.sleep(min(SAMPLE_EVERY, self.seconds - elapsed + 0.1))
        self.stop.set()
        answering = "camera" in self.state()
        steady = [sample for sample in samples if sample[0] >= min(WARM_UP, self.seconds / 3)]
        start, middle, end = steady[0], steady[len(steady) // 2], steady[-1]
        peak = max(rss for _, rss in steady)
        print(
            "VmRSS: start {:.1f} MiB (t={:.0f} s), middle {:.1f} MiB (t={:.0f} s), end {:.1f} MiB (t={:.0f} s), "
            "peak {:.1f} MiB".format(
                start[1] / 2**20, start[0], middle[1] / 2**20, middle[0], end[1] / 2**20, end[0], peak / 2**20))
        flat = end[1] - start[1] <= ALLOWED_GROWTH
        print(("flat" if flat else "GROWING") + f": the end is {(end[1] - start[1]) / 2**20:+.1f} MiB from the start"
              + ("" if answering else "; the server no longer answers /state"))
        return 0 if flat and answering else 1

    def close(self):
        self.stop.set()
        self.server.terminate()
        try:
            self.server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.server.kill()
        shutil.rmtree(self.folder, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=15)
    parser.add_argument("--waymark", default=".build/debug/waymark")
    arguments = parser.parse_args()
    soak = Soak(os.path.abspath(arguments.waymark), arguments.minutes * 60)
    try:
        return soak.run()
    finally:
        soak.close()


if __name__ == "__main__":
    sys.exit(main())
