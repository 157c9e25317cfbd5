import Foundation
import Testing

/// luassert itself in test files (docs/testing.md, "luassert"): `assert`, `spy`, `stub`,
/// `mock` and `match` are the system's luassert; a failed assertion fails its case (busted's
/// failure, not an error) with luassert's message at the test file's line; a file that does
/// not use them does not load luassert.
@Suite struct LuassertTests {
  let cases = TestCaseTests()

  static let spec = """
    describe("luassert", function()
      it("compares tables", function()
        assert.are.same({ 1, { 2 } }, { 1, { 2 } })
        assert.is_true(true)
        assert.is_not.equal(1, 2)
        assert(1 == 1, "plain assert passes")
      end)
      it("fails", function()
        assert.are.same({ 1, 2 }, { 1, 3 })
      end)
      it("errors", function()
        error("boom")
      end)
      it("fails a plain assert", function()
        assert(false, "plain")
      end)
      it("spies, stubs, mocks and matches", function()
        local s = spy.new(function(x) return x end)
        s(1, "two")
        assert.spy(s).was.called_with(1, match.is_string())
        local t = { f = function() return 1 end }
        stub(t, "f").returns(5)
        assert.are.equal(5, t.f("x"))
        assert.stub(t.f).was.called(1)
        t.f:revert()
        local m = mock({ g = function() return 2 end })
        m.g()
        assert.spy(m.g).was.called()
        assert.has_error(function() error("x") end)
      end)
      it("fails on a spy", function()
        assert.spy(spy.new(function() end)).was.called()
      end)
    end)

    """

  @Test func aFailedAssertionIsAFailureAndAnErrorIsAnErrorAsBustedCountsThem() throws {
    let folder = try cases.suite(["tests/luassert_spec.lua": Self.spec])
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try CLI.run(["test", "tests"], in: folder)
    #expect(
      cases.cases(result.stdout) == [
        "luassert compares tables": "pass", "luassert fails": "fail", "luassert errors": "error",
        "luassert fails a plain assert": "fail", "luassert spies, stubs, mocks and matches": "pass",
        "luassert fails on a spy": "fail",
      ], "\(result.stdout)")
    #expect(result.stdout.contains("tests/luassert_spec.lua:9: Expected objects to be the same."), "\(result.stdout)")
    #expect(result.stdout.contains("tests/luassert_spec.lua:15: plain"))
    #expect(result.stdout.contains("tests/luassert_spec.lua:32: Expected to be called >0 time(s), but was called 0"))
    // busted 2.1 on the same file: +-*-+- and "2 successes / 3 failures / 1 error / 0 pending".
    let plain = try CLI.run(["test", "-o", "plainTerminal", "tests"], in: folder)
    #expect(plain.stdout.hasPrefix("+-*-+-\n2 successes / 3 failures / 1 error / 0 pending"), "\(plain.stdout)")
  }

  @Test func aFileThatDoesNotUseItNeverLoadsLuassert() throws {
    let folder = try cases.suite([
      "tests/plain_test.lua": """
      it("has no luassert loaded", function()
        expect_eq(package.loaded.luassert, nil)
        expect_eq(package.loaded.say, nil)
      end)
      it("loads it on first use", function()
        expect_eq(type(assert.are.same), "table")
        expect_eq(type(package.loaded.luassert), "table")
      end)

      """
    ])
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try CLI.run(["test", "tests"], in: folder)
    #expect(result.stdout.hasSuffix("\n2 passed, 0 failed\n"), "\(result.stdout)")
  }

  @Test func debugSetmetatableIsThereForTablesOnly() throws {
    let folder = try cases.suite([
      "tests/meta_test.lua": """
      it("sets a table's metatable", function()
        local t = debug.setmetatable({}, { __index = { x = 1 } })
        expect_eq(t.x, 1)
        expect_eq(debug.getmetatable(""), false, "the string metatable stays hidden")
        local own = { __metatable = "mine" }
        local v = setmetatable({}, own)
        expect_eq(getmetatable(v), "mine")
        expect(debug.getmetatable(v) == own, "a table's own metatable, past its __metatable, as Lua's")
      end)
      it("refuses another value's", function()
        debug.setmetatable(1, {})
      end)

      """
    ])
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try CLI.run(["test", "tests"], in: folder)
    #expect(
      result.stdout.contains(
        "tests/meta_test.lua:11: debug.setmetatable: a test file sets the metatable of a table only, not of a number"),
      "\(result.stdout)")
    #expect(result.stdout.hasSuffix("\n1 passed, 1 failed\n"), "\(result.stdout)")
  }
}

/// `require` in test files finds what busted run from the suite's root finds (docs/testing.md,
/// "luassert"): `.busted`'s `lpath`, the root's `?.lua`, a module's name as `...`, and
/// `require("busted")`, `require("luassert")`, `require("say")`.
@Suite struct TestFileRequireTests {
  /// lua_cliargs's suite and the libraries it tests read fixtures with io.open and
  /// io.lines: a test file's io opens for reading what require could read, never for writing,
  /// never outside the project; `waymark check` knows it.
  @Test func aTestFileOpensItsFixturesForReadingOnly() throws {
    let folder = try TestCaseTests().suite([
      "spec/data.csv": "name,count\nalpha,1\nbeta,22\n",
      "spec/io_spec.lua": """
      describe("a test file's io", function()
        it("opens a fixture for reading and reads it in Lua's formats", function()
          local f = assert(io.open("spec/data.csv"))
          assert.are.equal("file", io.type(f))
          assert.are.equal("name,count", f:read("l"))
          assert.are.equal("alpha,1\\n", f:read("L"))
          assert.are.equal("beta", f:read(4))
          assert.are.equal(",22\\n", f:read("a"))
          assert.is_nil(f:read("l"))
          assert.are.equal(0, f:seek("set"))
          assert.are.equal("name,count\\nalpha,1\\nbeta,22\\n", f:read("*a"))
          assert.is_true(f:close())
          assert.are.equal("closed file", io.type(f))
          assert.has_error(function() f:read() end, "attempt to use a closed file")
        end)
        it("walks lines", function()
          local lines = {}
          for line in io.lines("spec/data.csv") do lines[#lines + 1] = line end
          assert.are.same({ "name,count", "alpha,1", "beta,22" }, lines)
        end)
        it("answers nil and why for what it does not open", function()
          local f, why = io.open("spec/data.csv", "w")
          assert.is_nil(f)
          assert.matches("for reading only", why)
          local missing, reason = io.open("spec/nope.csv")
          assert.is_nil(missing)
          assert.are.equal("spec/nope.csv: No such file or directory", reason)
          local outside, because = io.open("/etc/hostname")
          assert.is_nil(outside)
          assert.matches("outside the project", because)
        end)
      end)

      """,
    ])
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try CLI.run(["test"], in: folder)
    #expect(result.stdout.hasSuffix("\n3 passed, 0 failed\n"), "\(result.stdout)")
    let check = try CLI.run(["check", "spec"], in: folder)
    #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
    #expect(try String(contentsOf: folder.appendingPathComponent("spec/data.csv"), encoding: .utf8).hasPrefix("name"))
  }

  /// i18n's suite loads its fixtures with `loadfile("spec/en.lua")`: loadfile and dofile read
  /// what require could, relative to the working directory as Lua's, and never outside; and
  /// lua_cliargs's reads busted's `arg`.
  @Test func loadfileAndDofileReadTheProjectsFilesAsLuasDo() throws {
    let folder = try TestCaseTests().suite([
      "spec/data.lua": "return { greeting = \"hello\" }\n",
      "spec/env.lua": "return x + 1\n",
      "spec/load_spec.lua": """
      it("has busted's arg, the runner's command line", function()
        assert.are.same({ [0] = "waymark" }, arg)
      end)
      describe("loadfile", function()
        it("reads a file of the project relative to the working directory", function()
          local chunk = assert(loadfile("spec/data.lua"))
          assert.are.same({ greeting = "hello" }, chunk())
          assert.are.equal("hello", dofile("spec/data.lua").greeting)
        end)
        it("gives the chunk the environment asked for", function()
          local chunk = loadfile("spec/env.lua", "t", { x = 41 })
          assert.are.equal(42, chunk())
        end)
        it("answers nil and why for what it cannot read", function()
          local chunk, message = loadfile("/etc/hostname")
          assert.is_nil(chunk)
          assert.matches("outside the project", message)
          local missing, why = loadfile("spec/nope.lua")
          assert.is_nil(missing)
          assert.matches("No such file", why)
          assert.has_error(function() dofile("spec/nope.lua") end, "cannot open spec/nope.lua: No such file or directory")
        end)
      end)

      """,
    ])
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try CLI.run(["test"], in: folder)
    #expect(result.stdout.hasSuffix("\n4 passed, 0 failed\n"), "\(result.stdout)")
  }

  @Test func lpathTheSuiteRootAndBustedsModulesAreFound() throws {
    let folder = try TestCaseTests().suite([
      ".busted": "return { default = { lpath = \"./lib/?.lua\" } }\n",
      "lib/calc.lua": "local name = ...\nreturn { name = name, add = function(a, b) return a + b end }\n",
      "helpers.lua": "return { root = true }\n",
      "spec/require_spec.lua": """
      require("busted.runner")()  -- what a spec meant to run under plain lua starts with
      local calc = require("calc")
      local busted = require("busted")
      local say = require("say")
      describe("require", function()
        it("finds lpath and the root", function()
          assert.are.equal("calc", calc.name)
          assert.are.same({ root = true }, require("helpers"))
        end)
        it("answers busted's modules", function()
          assert.are.equal(assert, require("luassert"))
          assert.are.equal(spy, busted.spy)
          assert.are.equal("function", type(say.set))
        end)
        it("fails by busted.fail", function()
          busted.fail("by hand")
        end)
      end)

      """,
    ])
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try CLI.run(["test", "-o", "plainTerminal"], in: folder)
    #expect(result.stdout.hasPrefix("++-\n"), "\(result.stdout)")
    #expect(result.stdout.contains("\nspec/require_spec.lua:16: by hand\n"), "\(result.stdout)")
    let busted = try CLI.shell("busted -o plainTerminal", in: folder)
    #expect(busted.output.hasPrefix("++-\n"), "busted agrees: \(busted.output)")
  }
}
