// swift-tools-version:6.2
import PackageDescription

let package = Package(
  name: "Waymark",
  products: [
    .library(name: "WaymarkCore", targets: ["WaymarkCore"]),
    .library(name: "WaymarkScripting", targets: ["WaymarkScripting"]),
    .library(name: "WaymarkScenarios", targets: ["WaymarkScenarios"]),
    .library(name: "WaymarkTesting", targets: ["WaymarkTesting"]),
    .library(name: "WaymarkRender", targets: ["WaymarkRender"]),
    .library(name: "WaymarkServe", targets: ["WaymarkServe"]),
    .executable(name: "waymark", targets: ["waymark"]),
    .executable(name: "waymark-bench", targets: ["waymark-bench"]),
  ],
  targets: [
    // Lua 5.4 from the system (Debian: liblua5.4-dev), bare includes only.
    .systemLibrary(
      name: "CLua", pkgConfig: "lua5.4", providers: [.apt(["liblua5.4-dev"])]),
    // What Swift cannot see of the C API: macros, variadics, error trampolines,
    // the watchdog hook and the capped allocator.
    .target(name: "CLuaShims", dependencies: ["CLua"]),
    // A safe Swift face of the Lua C API. Knows nothing of maps.
    .target(name: "LuaKit", dependencies: ["CLua", "CLuaShims"]),
    // The map runtime. Knows nothing of Lua.
    .target(name: "WaymarkCore"),
    // The map's state as SVG; the HTML replay of a run. Knows nothing of Lua.
    .target(
      name: "WaymarkRender", dependencies: ["WaymarkCore"],
      exclude: ["BaseMap/README.md", "BaseMap/make_land_data.py"]),
    // For people who test code that embeds a map: a recording delegate, golden traces with
    // a readable diff, map fixtures. Knows nothing of Lua and of any test framework.
    .target(name: "WaymarkTesting", dependencies: ["WaymarkCore"]),
    // Lua plugins as delegates, the Lua face of the map, its sandbox; the Lua syntax and lint.
    .target(name: "WaymarkScripting", dependencies: ["WaymarkCore", "WaymarkRender", "LuaKit"]),
    // Scenarios: scripted runs and their cases, live sessions, the script fuzzer.
    .target(name: "WaymarkScenarios", dependencies: ["WaymarkScripting", "WaymarkCore", "WaymarkRender", "LuaKit"]),
    // GNU libmicrohttpd from the system (Debian: libmicrohttpd-dev), for WaymarkServe only.
    .systemLibrary(
      name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
    // The live map over HTTP: a live session on its own thread, routes, the page.
    .target(
      name: "WaymarkServe",
      dependencies: ["WaymarkScenarios", "WaymarkScripting", "WaymarkRender", "WaymarkCore", "CMicroHTTPD"]),
    // libedit from the system (Debian: libedit-dev): line editing and history for `waymark repl`.
    .systemLibrary(name: "CEditLine", pkgConfig: "libedit", providers: [.apt(["libedit-dev"])]),
    // The command-line tool.
    .executableTarget(
      name: "waymark",
      dependencies: [
        "WaymarkScenarios", "WaymarkScripting", "WaymarkRender", "WaymarkCore", "WaymarkServe", "LuaKit", "CEditLine",
      ]),
    // The benchmarks' floors written in plain C (lua_dispatch: a Lua event with no host).
    .target(name: "CLuaFloor", dependencies: ["CLua"], path: "Benchmarks/CLuaFloor"),
    // Benchmarks with their own baselines, measured in the same run.
    .executableTarget(
      name: "waymark-bench",
      dependencies: [
        "WaymarkCore", "WaymarkRender", "WaymarkScripting", "WaymarkScenarios", "WaymarkServe", "WaymarkTesting",
        "LuaKit",
        "CLua",
        "CLuaFloor",
      ],
      path: "Benchmarks/waymark-bench"),
    .testTarget(
      name: "WaymarkCoreTests", dependencies: ["WaymarkCore", "WaymarkTesting"], exclude: ["Scenarios/Golden"]),
    .testTarget(name: "WaymarkRenderTests", dependencies: ["WaymarkRender", "WaymarkCore"]),
    .testTarget(name: "LuaKitTests", dependencies: ["LuaKit", "CLua", "CLuaShims"]),
    .testTarget(
      name: "WaymarkScriptingTests",
      dependencies: ["WaymarkScripting", "WaymarkScenarios", "WaymarkCore", "WaymarkTesting", "LuaKit"],
      exclude: ["Fixtures"]),
    .testTarget(
      name: "WaymarkServeTests",
      dependencies: ["WaymarkServe", "WaymarkScenarios", "WaymarkScripting", "WaymarkRender", "WaymarkCore"]),
    .testTarget(
      name: "WaymarkCLITests",
      dependencies: ["waymark", "WaymarkScenarios", "WaymarkScripting", "WaymarkRender", "WaymarkCore"],
      exclude: ["Golden", "Fixtures"]),
  ]
)

// libFuzzer targets (Fuzz/, CONTRIBUTING.md "Sanitizers and fuzzing"), only when the
// environment has WAYMARK_FUZZ=1, as scripts/fuzz.sh sets it with its own build folder: they
// are built with -sanitize=fuzzer, which an ordinary build never sees.
if Context.environment["WAYMARK_FUZZ"] == "1" {
  // libFuzzer's driver, called from each target's main.
  package.targets.append(.target(name: "CFuzzDriver", path: "Fuzz/Targets/CFuzzDriver"))
  let fuzzers: [(name: String, dependencies: [Target.Dependency])] = [
    ("fuzz-content", ["WaymarkScripting", "WaymarkCore", "LuaKit"]),
    ("fuzz-script", ["WaymarkScenarios", "WaymarkScripting", "WaymarkCore"]),
    ("fuzz-trace", ["WaymarkCore"]),
    ("fuzz-repair", ["CLua", "CLuaShims"]),
  ]
  for fuzzer in fuzzers {
    package.targets.append(
      .executableTarget(
        name: fuzzer.name, dependencies: fuzzer.dependencies + ["CFuzzDriver"], path: "Fuzz/Targets/\(fuzzer.name)"))
  }
}

// One place for the language settings of every target.
for target in package.targets where target.type != .system {
  target.swiftSettings = (target.swiftSettings ?? []) + [.swiftLanguageMode(.v6)]
}
