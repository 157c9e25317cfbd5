import Foundation
import WaymarkCore
import WaymarkScenarios
import WaymarkScripting
import WaymarkServe

/// `waymark serve SCRIPT`: runs the script to build a map, keeps it alive and serves it on a
/// page where the mouse is the finger; edited plugins are hot-reloaded into it.
struct ServeCommand: Command {
  static let configuration = CommandConfiguration(
    name: "serve", abstract: "keep the script's map alive on a page you click; plugins hot-reload into it",
    summary: """
      Runs SCRIPT to build a map, keeps the map alive and serves it: open the printed address, and the mouse
      is the finger (click: tap; hold: long press; drag: pan; wheel: pinch; ...). The virtual clock follows the
      wall clock; the trace streams beside the map. A plugin file that changes is hot-reloaded into the running
      map (not a rerun: see run --watch for that); a broken edit keeps the old version answering. Prints one line,
      'serving http://127.0.0.1:PORT/?token=TOKEN', when ready; Ctrl-C stops it.
      """,
    examples: [
      "waymark serve scripts/city_guide.lua",
      "waymark serve my_scenario.lua --plugins my_plugins --port 0",
    ])

  static let options: [Option<ServeCommand>] = ScriptOptionParsing.options(
    \.options, \.budgets,
    around: [
      .value(
        "port", "N", \.configuration.port, help: "the port (default 8080; 0 picks a free one)",
        parse: { (text) throws(Refusal) in
          guard let number = UInt16(text) else { throw Refusal("expected a port number from 0 to 65535") }
          return number
        }),
      .value(
        "host", "ADDR", \.configuration.host,
        help: "the address to bind (default 127.0.0.1; another one is reachable by others)",
        parse: { (text) throws(Refusal) in
          do throws(ServeError) {
            try LiveMapServer.checkHost(text)
          } catch {
            throw Refusal.whole(error.message)
          }
          return text
        }),
      .text(
        "record", "FILE", \.configuration.recordFile,
        help: "write the inputs made in the page as a test file beside SCRIPT that replays them"),
    ])

  static let positionals = Positionals<ServeCommand>.one("SCRIPT", \.script)

  var script = ""
  var options = ScriptOptions()
  var budgets = HandlerBudgets()
  var configuration = LiveMapServer.Configuration()

  mutating func validate() throws(UsageError) {
    budgets.apply(to: &options.plugins, defaultInstructions: nil)
  }

  func execute() throws(CommandFailure) -> Int32 {
    try ScriptOptionParsing.requireFolders(options)
    // Ctrl-C and SIGTERM are waited for below (every thread started from here on inherits
    // the mask), so that plugins' teardown runs before the process ends.
    var signals = sigset_t()
    sigemptyset(&signals)
    sigaddset(&signals, SIGINT)
    sigaddset(&signals, SIGTERM)
    pthread_sigmask(SIG_BLOCK, &signals, nil)
    let server: LiveMapServer
    do {
      server = try LiveMapServer(script: script, options: options, configuration: configuration)
    } catch {
      throw CommandFailure(message: error.message, code: ExitCode.scriptError)
    }
    for failure in server.startup.failures { Output.error("expectation failed: \(TraceText.escaped(failure))") }
    for problem in server.startup.problems { Output.error(TraceText.escaped(problem)) }
    if let error = server.startup.error {
      Output.error(
        "waymark serve: the script stopped with an error; serving the map as it left it: \(TraceText.escaped(error))")
    }
    if server.isExposed {
      Output.error(
        "waymark serve: warning: \(configuration.host) is reachable from other machines; anyone with the address and its token can read and drive the map"
      )
    }
    if let file = configuration.recordFile {
      Output.error("waymark serve: recording the inputs made in the page to \(TraceText.escaped(file))")
    }
    Output.print("serving \(server.url)")
    var received: Int32 = 0
    sigwait(&signals, &received)
    Output.error("waymark serve: stopping")
    server.stop()
    if let failure = server.recordingFailure {
      Output.error("waymark serve: \(TraceText.escaped(failure))")
      return ExitCode.scriptError
    }
    if let file = configuration.recordFile { Output.error("waymark serve: wrote \(TraceText.escaped(file))") }
    return ExitCode.success
  }
}
