import Foundation
import LuaKit
import WaymarkCore
import WaymarkRender
import WaymarkScripting

/// Writes the pictures of a run (docs/pictures.md): an SVG at every idle camera (R23) and at
/// every `map:snapshot()` without a path into the run's snapshot folder, named
/// `NNNN-<t>-<reason>.svg` (NNNN counts from 0001 across the run's maps, t has three
/// decimals, reason is `idle` or `snapshot`); and `map:snapshot(path)` anywhere. Together
/// they write at most `byteLimit` bytes.
final class SnapshotWriter: MapObserver {
  /// Where numbered pictures go; nil: none are written.
  let folder: String?
  /// The most bytes the run's pictures may take (``ScriptOptions/snapshotBytes``).
  let byteLimit: Int
  private var count = 0
  private var writtenBytes = 0
  /// The first write that failed, reported once; later idle pictures are not attempted.
  private(set) var failure: String?

  init(folder: String?, byteLimit: Int) {
    self.folder = folder
    self.byteLimit = byteLimit
  }

  func mapView(_ mapView: MapView, didChange change: MapChange) {
    guard case .cameraIdle = change, folder != nil, failure == nil else { return }
    do {
      _ = try writeNumbered(mapView, reason: "idle")
    } catch {
      failure = "\(error)"
    }
  }

  /// `map:snapshot(path?)`: writes to `path`, or numbered into the folder; returns the path
  /// written, nil when there is neither.
  func snapshot(_ map: MapView, to path: String?) throws -> String? {
    if let path {
      try write(map, to: path)
      return path
    }
    return try writeNumbered(map, reason: "snapshot")
  }

  private func writeNumbered(_ map: MapView, reason: String) throws -> String? {
    guard let folder else { return nil }
    count += 1
    let number = String(count)
    let name =
      String(repeating: "0", count: max(0, 4 - number.count)) + number + "-"
      + String(format: "%.3f", map.clock.now) + "-" + reason + ".svg"
    let path = (folder as NSString).appendingPathComponent(name)
    try write(map, to: path)
    return path
  }

  private func write(_ map: MapView, to path: String) throws {
    let svg = SVGRenderer().svg(of: map)
    let size = svg.utf8.count
    guard writtenBytes + size <= byteLimit else {
      throw LuaFunctionError(
        "snapshot: not written: this picture (\(size) bytes) would pass the \(formatBytes(byteLimit)) of pictures "
          + "a run writes, \(writtenBytes) bytes written so far (ScriptOptions.snapshotBytes)")
    }
    do {
      try TextFile.write(svg, to: path)
    } catch {
      throw LuaFunctionError("snapshot: \(error)")
    }
    writtenBytes += size
  }
}
