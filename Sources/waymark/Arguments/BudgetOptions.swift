import WaymarkScripting

/// `--instructions N` and `--budget MS`, shared by `run` and `test`: the budgets of each
/// plugin handler call.
enum BudgetOptions {
  /// The instruction budget `waymark test` uses unless told otherwise: about 0.15 s of the
  /// simplest instructions on a 2025 machine, far more than a handler needs, and the same
  /// verdict on every machine.
  static let testInstructions = 100_000_000
  /// The wall-clock budget when it is only the safety net behind an instruction budget.
  static let safetyNet = Duration.seconds(10)

  /// The option specs.
  static let specs = [
    OptionSpec(
      name: "instructions", value: "N",
      help: "budget of each plugin handler call in Lua instructions (the same verdict on every machine); 0: none"),
    OptionSpec(
      name: "budget", value: "MS",
      help: "wall-clock budget of each handler call (default 50; 10000, a safety net, with --instructions)"),
  ]

  /// Applies the options to `configuration`; `instructions` is the default instruction budget.
  static func apply(
    _ arguments: ParsedArguments, to configuration: inout PluginHost.Configuration, command: String,
    instructions: Int?
  ) throws(UsageError) {
    var budget = instructions
    if let text = arguments.value("instructions") {
      guard let count = Int(text), count >= 0 else {
        throw UsageError(
          message: "--instructions \(text): expected a whole number of instructions (0 for none)", command: command)
      }
      budget = count == 0 ? nil : count
    }
    configuration.instructionBudget = budget
    if let text = arguments.value("budget") {
      guard let ms = Int(text), ms > 0 else {
        throw UsageError(message: "--budget \(text): expected a positive number of milliseconds", command: command)
      }
      configuration.timeBudget = .milliseconds(ms)
    } else if budget != nil {
      configuration.timeBudget = safetyNet
    }
  }
}
