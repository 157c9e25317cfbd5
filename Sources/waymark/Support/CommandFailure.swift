import Foundation

/// The exit codes of the command line (README, "The command line").
enum ExitCode {
  static let success: Int32 = 0
  static let expectationFailed: Int32 = 1
  static let usage: Int32 = 2
  static let scriptError: Int32 = 3
}

/// A command that could not do its work: a one-line message and an exit code.
struct CommandFailure: Error {
  let message: String
  let code: Int32

  /// What went wrong in a file operation, as the system says it ("No such file or directory").
  static func reason(_ error: Error) -> String {
    let nsError = error as NSError
    if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
      return String(cString: strerror(Int32(underlying.code)))
    }
    return nsError.localizedDescription
  }
}

/// A mistake on the command line: printed with the usage hint, exit code 2.
struct UsageError: Error, CustomStringConvertible {
  let message: String
  var description: String { message }
}
