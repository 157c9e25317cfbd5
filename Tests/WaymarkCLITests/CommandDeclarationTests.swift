import Foundation
import Testing
import WaymarkScripting

@testable import waymark

/// The commands are types whose options are declared by key path: the parser and --help
/// follow from the declarations, and the list in `WaymarkCLI.commands` is the only place a
/// command is named.
@Suite struct CommandDeclarationTests {
  @Test func everyCommandHasOneNameAndItsHelpListsEveryOption() {
    let names = WaymarkCLI.commands.map { $0.name }
    #expect(Set(names).count == names.count, "\(names)")
    for command in WaymarkCLI.commands {
      let help = helpText(of: command)
      #expect(Set(command.spellings).count == command.spellings.count, "\(command.name): \(command.spellings)")
      for spelling in command.spellings {
        #expect(help.contains("\n  \(spelling)"), "\(command.name) --help lacks \(spelling)")
      }
      #expect(WaymarkCLI.overview.contains("  \(command.name)"), "the overview lacks \(command.name)")
    }
  }

  @Test func optionsAreWrittenTypedIntoTheirProperties() throws {
    let command = try TestCommand.parse([
      "tests", "-x", "--filter", "tap", "--filter=drag", "-j", "2", "--shard", "2/4", "--memory", "64",
    ])
    #expect(command.paths == ["tests"])
    #expect(command.failsFast && command.worker.options.stopsAtFirstFailedCase)
    #expect(command.worker.options.caseFilters == ["tap", "drag"])
    #expect(command.jobs == 2 && command.memoryLimit == 64 << 20)
    #expect(command.shard?.index == 2 && command.shard?.count == 4)
    #expect(try TestCommand.parse([]).paths == ["."], "no PATH: the current folder")
  }

  @Test func handlerBudgetsKeepTheirDefaultsPerCommand() throws {
    let test = try TestCommand.parse([])
    #expect(test.worker.options.plugins.instructionBudget == HandlerBudgets.testInstructions)
    #expect(test.worker.options.plugins.timeBudget == HandlerBudgets.safetyNet)
    let run = try RunCommand.parse(["demo.lua"])
    #expect(run.options.plugins.instructionBudget == nil)
    #expect(run.options.plugins.timeBudget == PluginHost.Configuration().timeBudget)
    let none = try FuzzCommand.parse(["demo.lua", "--instructions", "0", "--budget", "7"])
    #expect(none.options.script.plugins.instructionBudget == nil)
    #expect(none.options.script.plugins.timeBudget == .milliseconds(7))
  }

  @Test func aRefusedValueNamesTheOptionAndTheValue() {
    #expect(
      message(ServeCommand.self, ["s.lua", "--port", "70000"])
        == "--port 70000: expected a port number from 0 to 65535")
    #expect(
      message(RunCommand.self, ["s.lua", "--trace", "jsn"])
        == "--trace jsn: expected text, json or none; did you mean json?")
    #expect(message(RunCommand.self, ["s.lua", "--snapshots="]) == "--snapshots needs a folder")
    #expect(message(TestCommand.self, ["--filter", "%"])?.hasPrefix("--filter %: not a Lua pattern") == true)
    #expect(message(TypesCommand.self, ["--output", "a", "--output", "b"]) == "--output was given twice")
    #expect(message(TypesCommand.self, ["--scripts=yes"]) == "--scripts takes no value")
    #expect(
      message(TestCommand.self, ["--update"])
        == "--update writes golden traces: give their folder with --golden DIR")
  }

  private func helpText<C: Command>(of command: C.Type) -> String { C.help }

  /// The usage error's message of `command` given `arguments`, nil when they parse.
  private func message<C: Command>(_ command: C.Type, _ arguments: [String]) -> String? {
    do {
      _ = try C.parse(arguments)
      return nil
    } catch {
      return error.message
    }
  }
}
