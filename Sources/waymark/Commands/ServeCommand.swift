import Foundation
import WaymarkCore
import WaymarkScenarios
import WaymarkScripting
import WaymarkServe

/// `waymark serve SCRIPT`: runs the script to build a map, keeps it alive and serves it on a
/// page where the mouse is the finger; edited plugins are hot-reloaded into it.
struct ServeCommand {
  static let spec = CommandSpec(
    name: "serve", usage: "SCRIPT",
    summary: """
      Runs SCRIPT to build a map, keeps the map alive and serves it: open the printed address, and the mouse
      is the finger (click: tap; hold: long press; drag: pan; wheel: pinch; ...). The virtual clock follows the
      wall clock; the trace streams beside the map. A plugin file that changes is hot-reloaded into the running
      map (not a rerun: see run --watch for that); a broken edit keeps the old version answering. Prints one line,
      'serving http://127.0.0.1:PORT/?token=TOKEN', when ready; Ctrl-C stops it.
      """,
    options: ScriptOptionParsing.pluginSpecs + [
      OptionSpec(name: "port", value: "N", help: "the port (default 8080; 0 picks a free one)"),
      OptionSpec(
        name: "host", value: "ADDR", help: "the address to bind (default 127.0.0.1; another one is reachable by others)"
      ),
    ] + ScriptOptionParsing.limitSpecs,
    positionals: 1...1,
    examples: [
      "waymark serve scripts/city_guide.lua",
      "waymark serve my_scenario.lua --plugins my_plugins --port 0",
    ])

  let script: String
  let options: ScriptOptions
  let configuration: LiveMapServer.Configuration

  init(_ arguments: ParsedArguments) throws(UsageError) {
    script = arguments.positionals[0]
    options = try ScriptOptionParsing.options(arguments, command: "serve")
    var configuration = LiveMapServer.Configuration()
    if let port = arguments.value("port") {
      guard let number = UInt16(port) else {
        throw UsageError(message: "--port \(port): expected a port number from 0 to 65535", command: "serve")
      }
      configuration.port = number
    }
    if let host = arguments.value("host") {
      do {
        try LiveMapServer.checkHost(host)
      } catch {
        throw UsageError(message: error.message, command: "serve")
      }
      configuration.host = host
    }
    self.configuration = configuration
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
    Output.print("serving \(server.url)")
    var received: Int32 = 0
    sigwait(&signals, &received)
    Output.error("waymark serve: stopping")
    server.stop()
    return ExitCode.success
  }
}
