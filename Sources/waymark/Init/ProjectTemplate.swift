import WaymarkScenarios
import WaymarkScripting

/// The project `waymark init` writes: a plugin, a scenario that drives a map with it, a test
/// of a few cases, the editor's and luacheck's settings, and a CI workflow. The definition
/// files and the `.luacheckrc` are generated from the sandbox, as `waymark types` prints them.
enum ProjectTemplate {
  /// A file of the project: its path inside the project's folder and its text.
  struct File {
    let path: String
    let text: String
  }

  /// Every file, in the order they are written.
  static var files: [File] {
    [
      File(path: "waymark.lua", text: project),
      File(path: "plugins/places/places.lua", text: plugin),
      File(path: "scripts/demo.lua", text: scenario),
      File(path: "tests/places_test.lua", text: test),
      File(path: "types/waymark.d.lua", text: LuaLSDefinitions.generate()),
      File(path: "types/scripts/waymark-scripts.d.lua", text: LuaLSDefinitions.generateScripts()),
      File(path: ".luarc.json", text: luarc(libraries: ["types/waymark.d.lua", "types/scripts"], tests: true)),
      File(path: "plugins/.luarc.json", text: luarc(libraries: ["../types/waymark.d.lua"], tests: false)),
      File(path: ".luacheckrc", text: LuacheckConfiguration.generate()),
      File(path: ".github/workflows/waymark.yml", text: workflow),
    ]
  }

  /// LuaLS settings: Lua 5.4 without the libraries the sandbox leaves out, the definition
  /// files, and (for scripts and tests) the functions of a test file's cases. The project's
  /// root loads both definition files (scripts and tests live there); `plugins/` only the
  /// plugins', so that a plugin is never offered `waymark` or `expect`.
  static func luarc(libraries: [String], tests: Bool) -> String {
    let quoted = { (names: [String]) in names.map { "\"\($0)\"" }.joined(separator: ", ") }
    var lines = [
      "{",
      "  \"$schema\": \"https://raw.githubusercontent.com/LuaLS/vscode-lua/master/setting/schema.json\",",
      "  \"runtime.version\": \"Lua 5.4\",",
      "  \"runtime.builtin\": { \"io\": \"disable\", \"package\": \"disable\", \"ffi\": \"disable\", \"jit\": \"disable\" },",
      "  \"workspace.library\": [\(quoted(libraries))],",
    ]
    if tests { lines.append("  \"diagnostics.globals\": [\(quoted(LuacheckConfiguration.caseFunctions))],") }
    lines += ["  \"workspace.ignoreDir\": [\".build\"],", "  \"workspace.checkThirdParty\": false", "}", ""]
    return lines.joined(separator: "\n")
  }

  /// The project file: every `waymark` command run inside the project finds it.
  static let project = """
    -- waymark.lua: this project's settings; every waymark command run in this folder or below
    -- finds it, and its command-line flags win over it. Every key is optional and paths are
    -- relative to this folder (Waymark's docs/projects.md); uncomment what the project needs.
    return {
      test = { paths = { "tests" } },  -- what `waymark test` runs with no PATH
      -- plugins = { "plugins/places" },             -- plugin folders loaded into every map
      -- modules = { "lib", "/usr/share/lua/5.4" },  -- require roots: make lib/; Debian's Lua libraries
      -- data = { "data" },                          -- folders waymark.data may read: make data/
      -- settings = { places = { radius = 500 } },   -- setup(map, settings) of the plugin named places
      -- clock = { start = "2025-06-02T09:00:00", zone = "Europe/Paris" },  -- os.time and os.date
    }

    """

  static let plugin = """
    -- plugins/places/places.lua: the project's plugin, a table of handlers named after the
    -- callbacks of GMSMapViewDelegate (waymark's docs/plugins.md).
    ---@type Plugin
    local plugin = { name = "places" }

    -- A veto: a tap on a marker whose title starts with "Private" is handled here (true), so
    -- the map skips its default behaviour: no selection, no window, no camera move.
    function plugin.did_tap_marker(map, marker)
      if marker.title and marker.title:find("^Private") then
        print(marker.id .. " is private")
        return true
      end
    end

    -- Content: every other marker gets a whole custom window, its title over its position.
    function plugin.marker_info_window(map, marker)
      return {
        { text = marker.title or marker.id, style = "title" },
        { text = string.format("%.4f, %.4f", marker.position.lat, marker.position.lng), style = "caption" },
      }
    end

    return plugin

    """

  static let scenario = """
    -- scripts/demo.lua: a map driven with the project's plugin. `waymark run scripts/demo.lua`
    -- prints its trace; `--html demo.html` plays it in a browser; `waymark repl scripts/demo.lua`
    -- keeps the map live in the terminal (tower and garden are there too).
    local map = waymark.map{
      camera = { target = { lat = 48.8584, lng = 2.2945 }, zoom = 14 },
      plugins = { "../plugins/places" },
    }
    local tower = map:add_marker{ id = "tower", position = { lat = 48.8584, lng = 2.2945 }, title = "Eiffel Tower" }
    local garden = map:add_marker{ id = "garden", position = { lat = 48.8550, lng = 2.2900 }, title = "Private garden" }

    map:tap(tower)
    expect_eq(map.info_window.kind, "window", "the plugin's window")
    map:settle()

    map:tap(garden)
    expect(map.selected_marker == tower, "the private garden's tap was handled: the tower stays selected")
    map:settle()

    """

  static let test = """
    -- tests/places_test.lua: `waymark test tests` runs every *_test.lua, each `it` a case of its
    -- own, named by its describes and its it ("places a tap on a marker opens its window").
    local map, tower, garden

    describe("places", function()
      before_each(function()
        map = waymark.map{
          camera = { target = { lat = 48.8584, lng = 2.2945 }, zoom = 14 },
          plugins = { "../plugins/places" },
        }
        tower = map:add_marker{ id = "tower", position = { lat = 48.8584, lng = 2.2945 }, title = "Eiffel Tower" }
        garden = map:add_marker{ id = "garden", position = { lat = 48.8550, lng = 2.2900 }, title = "Private garden" }
      end)

      describe("a tap on a marker", function()
        it("opens its window", function()
          map:tap(tower)
          expect_eq(map.info_window.kind, "window", "the plugin's window")
          expect_eq(map.info_window.content[1].text, "Eiffel Tower", "with the marker's title")
        end)

        it("is handled when the marker is private", function()
          map:tap(garden)
          expect(map.selected_marker == nil, "nothing is selected")
          expect(map.info_window == nil, "no window opens")
        end)
      end)

      it("closes the window on a tap on the map", function()
        map:tap(tower)
        map:settle()
        map:tap{ x = 20, y = 20 }
        expect(map.info_window == nil, "the window closed")
      end)
    end)

    """

  /// GitHub Actions: Waymark built from its repository (the repository variable
  /// `WAYMARK_GIT`, a git URL; `WAYMARK_REF` a branch or tag, `main` by default), then the
  /// tests in four shards, each writing a JUnit report that the last job publishes.
  static let workflow = """
    # .github/workflows/waymark.yml: `waymark test` in four shards, each a JUnit report.
    # Set the repository variable WAYMARK_GIT to the git URL of Waymark (WAYMARK_REF: a branch or tag).
    name: waymark
    on: [push, pull_request]
    jobs:
      test:
        runs-on: ubuntu-latest
        container: swift:6.3-bookworm
        strategy:
          fail-fast: false
          matrix:
            shard: [1, 2, 3, 4]
        steps:
          - uses: actions/checkout@v4
          - name: Build waymark
            run: |
              git clone --depth 1 --branch "${{ vars.WAYMARK_REF || 'main' }}" "${{ vars.WAYMARK_GIT }}" /tmp/waymark
              /tmp/waymark/scripts/setup.sh
              /tmp/waymark/scripts/install.sh /usr/local
          - run: waymark test tests --shard ${{ matrix.shard }}/4 --junit junit-${{ matrix.shard }}.xml
          - uses: actions/upload-artifact@v4
            if: always()
            with:
              name: junit-${{ matrix.shard }}
              path: junit-${{ matrix.shard }}.xml
      report:
        needs: test
        if: always()
        runs-on: ubuntu-latest
        steps:
          - uses: actions/download-artifact@v4
            with:
              pattern: junit-*
              merge-multiple: true
          - uses: mikepenz/action-junit-report@v4
            with:
              report_paths: junit-*.xml

    """
}
