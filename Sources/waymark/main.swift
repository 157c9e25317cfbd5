import Foundation

// `waymark`: run scripted demos, check plugins and scripts, print the Lua API definitions.
let status = WaymarkCLI.main(Array(CommandLine.arguments.dropFirst()))
exit(status)
