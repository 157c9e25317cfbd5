/// Waymark's version.
public enum WaymarkVersion {
  /// The release, as `waymark --version` prints it.
  public static let current = "0.1.0"
}
