/// Waymark's version.
package enum WaymarkVersion {
  /// The release, as `waymark --version` prints it.
  package static let current = "0.1.0"
}
