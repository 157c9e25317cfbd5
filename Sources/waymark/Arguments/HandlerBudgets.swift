import WaymarkScripting

/// `--instructions N` and `--budget MS`, shared by `run`, `test`, `fuzz`, `serve` and `repl`:
/// the budgets of each plugin handler call, as given.
struct HandlerBudgets {
  /// The instruction budget `waymark test` and `fuzz` use unless told otherwise: about 0.15 s
  /// of the simplest instructions on a 2025 machine, far more than a handler needs, and the
  /// same verdict on every machine.
  static let testInstructions = 100_000_000
  /// The wall-clock budget when it is only the safety net behind an instruction budget.
  static let safetyNet = Duration.seconds(10)

  /// `--instructions`, when given (0: none).
  var instructions: Int?
  /// `--budget` in milliseconds, when given.
  var milliseconds: Int?

  /// The options.
  static let options: [Option<HandlerBudgets>] = [
    .value(
      "instructions", "N", \.instructions,
      help: "budget of each plugin handler call in Lua instructions (the same verdict on every machine); 0: none",
      parse: { (text) throws(Refusal) in
        try OptionValue.whole(atLeast: 0, "a whole number of instructions (0 for none)")(text)
      }),
    .value(
      "budget", "MS", \.milliseconds,
      help: "wall-clock budget of each handler call (default 50; 10000, a safety net, with --instructions)",
      parse: { (text) throws(Refusal) in try OptionValue.whole(atLeast: 1, "a positive number of milliseconds")(text) }),
  ]

  /// Applies the budgets to `configuration`; `instructions` is the instruction budget when
  /// none was given.
  func apply(to configuration: inout PluginHost.Configuration, defaultInstructions: Int?) {
    let budget = instructions.map { $0 == 0 ? nil : $0 } ?? defaultInstructions
    configuration.instructionBudget = budget
    if let milliseconds {
      configuration.timeBudget = .milliseconds(milliseconds)
    } else if budget != nil {
      configuration.timeBudget = Self.safetyNet
    }
  }
}
