import LuaKit
import WaymarkCore

/// How much one Lua state's code may make the host keep, outside the state's memory cap
/// (docs/plugins.md, "Limits"). Checked before the host copies anything; past a limit the
/// Lua call raises, so a plugin gets a `plugin_error` and a script stops with an error.
public struct HostLimits: Sendable, Equatable {
  /// Bytes of `print` and `map:log` text kept in the trace over the state's life.
  public var logBytes: Int
  /// Bytes of `user_data` published for the other states at once.
  public var sharedBytes: Int
  /// Markers and overlays alive at once, plus places (points of interest and feature
  /// layers, which cannot be removed).
  public var objects: Int

  /// Limits with these values.
  public init(logBytes: Int, sharedBytes: Int, objects: Int) {
    self.logBytes = logBytes
    self.sharedBytes = sharedBytes
    self.objects = objects
  }

  /// A plugin's: 16 MiB of log text, 8 MiB of shared `user_data`, 100,000 objects.
  public static let plugin = HostLimits(logBytes: 16 << 20, sharedBytes: 8 << 20, objects: 100_000)
  /// A script's: 64 MiB of log text, 64 MiB of shared `user_data` (a script loads a
  /// project's data: 100,000 GeoJSON features' properties take about 10 MiB), 400,000
  /// objects (about 250 MB of markers as Lua sees them).
  public static let script = HostLimits(logBytes: 64 << 20, sharedBytes: 64 << 20, objects: 400_000)
}

/// What one Lua state's code has made the host keep, against its ``HostLimits``: the log
/// text it wrote to the trace, the plain data it shares with other states (`user_data`),
/// and the markers, overlays and places it added to the map.
final class HostQuota {
  let limits: HostLimits
  /// What the state is, in messages ("this plugin", "the script").
  let owner: String
  private(set) var logBytes = 0
  private(set) var sharedBytes = 0
  /// Objects the state created, some perhaps removed since (forgotten when the count
  /// reaches the limit), and places.
  private var markers: [Marker] = []
  private var overlays: [Overlay] = []
  private var places = 0

  init(_ limits: HostLimits, owner: String) {
    self.limits = limits
    self.owner = owner
  }

  /// Takes `bytes` of log text from the budget, or throws if it is spent.
  func chargeLog(_ bytes: Int) throws(LuaFunctionError) {
    guard logBytes + bytes <= limits.logBytes else {
      throw LuaFunctionError(
        "\(owner) has written \(formatBytes(limits.logBytes)) of log text to the trace, its limit; nothing more is kept"
      )
    }
    logBytes += bytes
  }

  /// Replaces `previous` bytes of shared data by `new` ones, or throws past the limit.
  func chargeShared(_ new: Int, replacing previous: Int, what: String) throws(LuaFunctionError) {
    guard sharedBytes - previous + new <= limits.sharedBytes else {
      throw LuaFunctionError(
        "\(what): \(owner) would share more than \(formatBytes(limits.sharedBytes)) with the others"
          + " (\(new) bytes for this value); keep large data in the state itself")
    }
    sharedBytes += new - previous
  }

  /// Gives back `bytes` of shared data that no longer exists (a cluster item removed).
  func releaseShared(_ bytes: Int) { sharedBytes = max(0, sharedBytes - bytes) }

  /// The room left for shared data, to bound a copy before it is made.
  func sharedRoom(replacing previous: Int) -> Int { limits.sharedBytes - sharedBytes + previous }

  /// Throws if the state already holds its limit of objects; `what` names the call.
  func requireRoomForObject(_ what: String) throws(LuaFunctionError) {
    if markers.count + overlays.count + places >= limits.objects {
      markers.removeAll { $0.map == nil }
      overlays.removeAll { $0.map == nil }
    }
    guard markers.count + overlays.count + places < limits.objects else {
      throw LuaFunctionError(
        "\(what): \(owner) already has \(limits.objects) markers, overlays and places on the map, its limit")
    }
  }

  /// Throws unless the state may add `count` more objects; `what` names the call.
  func requireRoomForObjects(_ count: Int, what: String) throws(LuaFunctionError) {
    guard count > 0 else { return }
    if markers.count + overlays.count + places + count > limits.objects {
      markers.removeAll { $0.map == nil }
      overlays.removeAll { $0.map == nil }
    }
    let room = limits.objects - markers.count - overlays.count - places
    guard count <= room else {
      throw LuaFunctionError(
        "\(what): \(count) markers would pass the limit of \(limits.objects) markers, overlays and places \(owner) may have on the map (room for \(max(0, room)))"
      )
    }
  }

  /// Counts a marker the state added.
  func added(_ marker: Marker) { markers.append(marker) }
  /// Counts an overlay the state added.
  func added(_ overlay: Overlay) { overlays.append(overlay) }
  /// Counts a place (a point of interest or a feature layer) the state added.
  func addedPlace() { places += 1 }
}

/// "16 MiB", "512 KiB" or "100 bytes".
package func formatBytes(_ bytes: Int) -> String {
  if bytes >= 1 << 20 && bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
  if bytes >= 1 << 10 && bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
  return "\(bytes) bytes"
}
