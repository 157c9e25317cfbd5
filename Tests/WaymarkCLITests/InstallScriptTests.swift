import Foundation
import Testing

/// `scripts/install.sh [PREFIX]`: its arguments and what it would build and install. A real
/// install builds in release (minutes), so the tests use its dry run; the commit it records
/// is what `waymark --version` prints (README, "Install").
@Suite struct InstallScriptTests {
  static let script = CLI.root.appendingPathComponent("scripts/install.sh").path

  @Test("It builds both products in release and installs them into PREFIX/bin with the commit")
  func dryRun() throws {
    let run = try CLI.shell("WAYMARK_INSTALL_DRY_RUN=1 \(Self.script) /tmp/waymark-prefix", in: CLI.root)
    #expect(run.status == 0, "\(run.output)")
    for line in [
      "would run: swift build -c release --product waymark\n",
      "would run: swift build -c release --product waymark-bench\n",
      "would run: install -m 755 .build/release/waymark /tmp/waymark-prefix/bin/waymark\n",
      "would run: install -m 755 .build/release/waymark-bench /tmp/waymark-prefix/bin/waymark-bench\n",
      "would write: /tmp/waymark-prefix/share/waymark/commit (",
    ] {
      #expect(run.output.contains(line), "\(line)")
    }
  }

  @Test("The prefix is /usr/local by default; a second argument or an unknown option is bad usage")
  func arguments() throws {
    let plain = try CLI.shell("WAYMARK_INSTALL_DRY_RUN=1 \(Self.script)", in: CLI.root)
    #expect(plain.output.contains("/usr/local/bin/waymark\n"))
    let two = try CLI.shell("\(Self.script) a b", in: CLI.root)
    #expect(two.status == 2 && two.output.contains("one PREFIX at most"))
    let option = try CLI.shell("\(Self.script) --prefix", in: CLI.root)
    #expect(option.status == 2 && option.output.contains("unknown option '--prefix'"))
    let help = try CLI.shell("\(Self.script) --help", in: CLI.root)
    #expect(help.status == 0 && help.output.contains("installs waymark waymark-bench into PREFIX/bin"))
  }

  @Test("An installed waymark names the commit install.sh recorded beside it")
  func versionNamesTheCommit() throws {
    let prefix = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: prefix) }
    let bin = prefix.appendingPathComponent("bin")
    try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(
      at: prefix.appendingPathComponent("share/waymark"), withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      at: bin.appendingPathComponent("waymark"), withDestinationURL: CLI.executable)
    #expect(try CLI.shell("bin/waymark --version", in: prefix).output.hasSuffix("(unknown commit)\n"))
    try FileManager.default.removeItem(at: bin.appendingPathComponent("waymark"))
    try FileManager.default.copyItem(at: CLI.executable, to: bin.appendingPathComponent("waymark"))
    try "abc1234\n".write(to: prefix.appendingPathComponent("share/waymark/commit"), atomically: true, encoding: .utf8)
    #expect(try CLI.shell("bin/waymark --version", in: prefix).output.hasSuffix(" (commit abc1234)\n"))
  }
}
