// cluster_100k_lua: ms that one `clusters_at` call costs a plugin (Lua) over 100,000 items at
// zooms 4, 10 and 16: the clustering and the Lua tables of its answer, against building the
// answer's shape for 100,000 one-item clusters in Lua itself, in the same run.

import Foundation
import WaymarkCore
import WaymarkScripting

/// A plugin whose tapped marker names a loop: `setup` adds 100,000 items uniform over
/// Australia (untimed), `z4`/`z10`/`z16` call `clusters_at`, `floor` builds 100,000
/// `{ position, count, items }` tables in Lua.
private let clusterPlugin = """
  local p = { name = "clusters" }
  local count, items, manager = 100000, {}, nil
  function p.setup(map) p.map = map end
  local function setup()
    manager = p.map:clusters{}
    local seed = 42
    local function random() seed = (seed * 1103515245 + 12345) % 2147483648 return seed / 2147483648 end
    for i = 1, count do
      items[i] = { id = "item " .. i, position = { lat = -40 + 30 * random(), lng = 113 + 40 * random() } }
    end
    manager:add(items)
    return true
  end
  local function at(zoom)
    return function()
      local total = 0
      for _, cluster in ipairs(manager:clusters_at(zoom)) do total = total + cluster.count end
      return total == count
    end
  end
  local function floor()
    local out = {}
    for i = 1, count do
      local item = items[i]
      out[i] = { position = { lat = item.position.lat, lng = item.position.lng }, count = 1, items = { item } }
    end
    return #out == count
  end
  local loops = { setup = setup, z4 = at(4), z10 = at(10), z16 = at(16), floor = floor }
  function p.did_tap_marker(map, marker) return loops[marker.id]() end
  return p
  """

/// The `cluster_100k_lua` benchmark.
enum Cluster100kLuaBenchmark {
  /// The registry entry.
  static var benchmark: Benchmark {
    Benchmark(
      name: "cluster_100k_lua",
      summary:
        "ms of one clusters_at over 100k items from Lua at zooms 4, 10, 16 vs building 100k clusters' tables in Lua",
      run: run)
  }

  /// Each run: the three zooms and the floor, on one map whose plugin added the items.
  static func run(_ context: BenchmarkContext) throws -> [Figure] {
    let folder = try PluginBenchFolder(["clusters.lua": clusterPlugin])
    let map = try MapView(camera: CameraPosition(target: Coordinate(latitude: -25, longitude: 134), zoom: 4))
    map.trace.isEnabled = false
    var configuration = PluginHost.Configuration()
    configuration.timeBudget = nil
    configuration.memoryLimit = 1 << 30
    let host = try folder.host(for: map, configuration: configuration)
    /// Seconds the loop named `name` took; a failure if it did not answer true.
    func time(_ name: String) throws -> Double {
      let marker = try map.addMarker(MarkerOptions(position: map.camera.target, id: name))
      defer { try? map.remove(marker) }
      var handled = false
      let time = seconds { handled = host.mapView(map, receive: .didTapMarker(marker)).isHandled }
      guard handled else { throw BenchmarkFailure(description: "cluster_100k_lua: the \(name) loop failed") }
      return time
    }
    context.progress("cluster_100k_lua: adding 100,000 items from Lua")
    _ = try time("setup")
    let samples = try context.measure { _ in
      var figures = ["floor": try time("floor") * 1e3]
      for zoom in ["z4", "z10", "z16"] { figures[zoom] = try time(zoom) * 1e3 }
      return figures
    }
    return ["z4", "z10", "z16"].map { zoom in
      Figure(
        name: "cluster_100k_lua.\(zoom)", unit: "ms", samples: samples[zoom],
        baseline: "building 100,000 one-item clusters' { position, count, items } tables in Lua",
        baselineSamples: samples["floor"],
        ratioMeaning: "clusters_at from Lua / the Lua tables of 100k one-item clusters",
        goal: Goal(text: "<= 150 ms a call (issue 34)") { value, _ in value <= 150 })
    }
  }
}
