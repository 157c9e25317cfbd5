import Foundation

/// The commit this `waymark` was built from, as `scripts/install.sh` records it beside the
/// installed executable (`PREFIX/share/waymark/commit`, PREFIX being the folder above the
/// executable's `bin`). A build that was not installed (`swift run`) does not know its
/// commit and says so rather than guess from whatever folder it runs in.
enum BuildCommit {
  /// `commit abc1234`, or `unknown commit`.
  static var described: String {
    guard let commit = recorded else { return "unknown commit" }
    return "commit \(commit)"
  }

  /// The commit recorded beside the executable, if any.
  static var recorded: String? {
    guard let executable = Bundle.main.executableURL?.resolvingSymlinksInPath() else { return nil }
    let file = executable.deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("share/waymark/commit")
    guard let data = FileManager.default.contents(atPath: file.path), data.count <= 200 else { return nil }
    let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    guard !text.isEmpty, text != "unknown", !text.contains(where: \.isNewline) else { return nil }
    return text
  }
}
