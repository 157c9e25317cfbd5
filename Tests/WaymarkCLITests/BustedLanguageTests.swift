import Foundation
import Testing

/// busted 2's test globals in `waymark test` (docs/testing.md, "Cases inside a file"): every
/// block and hook in busted's order, errors outside a case as entries of their own, `pending()`
/// inside a case, `insulate`, and tags.
@Suite struct BustedLanguageTests {
  let cases = TestCaseTests()

  /// Every block and hook logs its name; the last case holds the log to the order busted
  /// 2.1 gives for the same file (run with Debian's busted, `print(table.concat(log, ","))`).
  static let order = """
    local log = {}
    local function add(s) log[#log + 1] = s end
    setup(function() add("root setup") end)
    teardown(function() add("root teardown") end)
    describe("outer #slow", function()
      add("outer body")
      lazy_setup(function() add("outer lazy") end)
      lazy_teardown(function() add("outer lazy down") end)
      before_each(function() add("outer before") end)
      after_each(function() add("outer after") end)
      context("inner", function()
        add("inner body")
        strict_setup(function() add("inner setup") end)
        strict_teardown(function() add("inner teardown") end)
        it("one", function() add("one"); finally(function() add("finally one") end) end)
        spec("two #fast", function() add("two"); error("two broke") end)
        test("three", function() pending("not yet") end)
      end)
    end)
    insulate("insulated", function()
      it("sets a global", function() leaked = 1 end)
    end)
    expose("exposed", function()
      it("sees the insulated global gone", function() assert(leaked == nil, "insulate put the globals back") end)
    end)
    it("checks the order", function()
      expect_eq(table.concat(log, ","), "root setup,outer body,inner body,inner setup,outer lazy,outer before,one,"
        .. "finally one,outer after,outer before,two,outer after,outer before,outer after,inner teardown,outer lazy down")
    end)

    """

  @Test func everyBlockAndHookRunsInBustedsOrder() throws {
    let folder = try cases.suite(["tests/order_spec.lua": Self.order])
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try CLI.run(["test", "tests"], in: folder)
    #expect(
      cases.cases(result.stdout) == [
        "outer #slow inner one": "pass", "outer #slow inner two #fast": "error", "outer #slow inner three": "skip",
        "insulated sets a global": "pass", "exposed sees the insulated global gone": "pass",
        "checks the order": "pass",
      ], "\(result.stdout)")
    #expect(result.stdout.contains("tests/order_spec.lua:16: two broke"))
    #expect(result.stdout.hasSuffix("\n4 passed, 1 failed, 1 skipped\n"), "busted: 4 successes, 1 error, 1 pending")
  }

  @Test func anErrorOutsideACaseIsAnEntryNamedByItsBlockAndHook() throws {
    let folder = try cases.suite([
      "tests/broken_spec.lua": """
      describe("db", function()
        setup(function() error("no database") end)
        it("never runs", function() error("ran") end)
        teardown(function() print("teardown still runs") end)
      end)
      describe("lazy", function()
        lazy_setup(function() error("lazy broke") end)
        it("a", function() error("ran") end)
        it("b", function() error("ran") end)
      end)
      describe("body", function()
        error("body broke")
      end)
      describe("after", function()
        after_each(function() error("cleanup broke") end)
        it("fails through its after_each", function() end)
      end)
      it("finally is only for an it", function() finally(function() end) end)
      before_each(function() end)
      it("runs after them all", function() end)

      """
    ])
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try CLI.run(["test", "tests"], in: folder)
    #expect(
      cases.cases(result.stdout) == [
        "db setup": "error", "lazy lazy_setup": "error", "body": "error", "after fails through its after_each": "error",
        "finally is only for an it": "pass", "runs after them all": "pass",
      ], "a failed setup skips its cases; a failed lazy_setup is said once: \(result.stdout)")
    #expect(result.stdout.contains("tests/broken_spec.lua:2: no database"))
    #expect(result.stdout.contains("tests/broken_spec.lua:12: body broke"))
    #expect(!result.stdout.contains(": ran"))
    #expect(result.stdout.hasSuffix("\n2 passed, 4 failed\n"))
    #expect(result.status == 1)
  }

  @Test func hooksAndCasesAreRefusedWhereBustedRefusesThem() throws {
    let folder = try cases.suite([
      "tests/misplaced_spec.lua": """
      it("declares a case", function() it("inner", function() end) end)
      it("declares a hook", function() setup(function() end) end)
      describe("finally outside an it", function() finally(function() end) end)

      """
    ])
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try CLI.run(["test", "tests"], in: folder)
    #expect(result.stdout.contains("tests/misplaced_spec.lua:1: it: cases are declared at the top of a test file"))
    #expect(result.stdout.contains("tests/misplaced_spec.lua:2: setup: declared inside a case"))
    #expect(result.stdout.contains("tests/misplaced_spec.lua:3: finally: only inside an it"), "\(result.stdout)")
  }

  /// busted's curried form, `describe "name" (function() ... end)` and `it "name" (...)`,
  /// declares as the two-argument calls do, with the same counts as busted; a bare `it(name)`
  /// is pending here (busted declares nothing for it: not in the compared file).
  @Test func theCurriedFormDeclaresAsBustedDoes() throws {
    let curried = """
      describe "cart" (function()
        before_each(function() CART = {} end)
        it "starts empty" (function() assert.are.same({}, CART) end)
        context "with an item" (function()
          it "counts it" (function() CART[1] = "tea"; assert.are.equal(2, #CART) end)
        end)
        spec "is a spec too" (function() end)
      end)

      """
    let folder = try cases.suite([
      "spec/curried_spec.lua": curried,
      "other/bare_spec.lua": "it('todo')\ndescribe 'never given a function'\nit 'wrong' (42)\n",
    ])
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try CLI.run(["test", "spec"], in: folder)
    #expect(
      cases.cases(result.stdout) == [
        "cart starts empty": "pass", "cart with an item counts it": "fail", "cart is a spec too": "pass",
      ], "\(result.stdout)")
    #expect(result.stdout.contains("spec/curried_spec.lua:5: Expected objects to be equal."), "\(result.stdout)")
    let busted = try CLI.shell("busted -o TAP spec", in: folder)
    #expect(busted.output.contains("\n1..3\n") && busted.output.contains("not ok 2 - cart with an item counts it"))
    let bare = try CLI.run(["test", "other"], in: folder)
    #expect(bare.stdout.contains("other/bare_spec.lua:3: bad argument #2 to 'it' (function expected, got number)"))
    let pending = try cases.suite(["spec/todo_spec.lua": "it('todo')\nit('done', function() end)\n"])
    defer { try? FileManager.default.removeItem(at: pending) }
    #expect(try CLI.run(["test"], in: pending).stdout.hasSuffix("\n1 passed, 0 failed, 1 skipped\n"))
  }

  /// busted's `randomize([flag][, seed])`: the block's cases run in the order busted's
  /// shuffle gives with that seed (computed here by the same shuffle under lua5.4); without a
  /// seed, the file's own, so two runs agree; `randomize(false)` keeps the order; inside a
  /// case it is refused, as busted refuses it.
  @Test func randomizeShufflesABlockAsBustedDoes() throws {
    let folder = try cases.suite([
      "spec/shuffled_spec.lua": """
      describe("seeded", function()
        randomize(42)
        for i = 1, 8 do it("s" .. i, function() end) end
      end)
      describe("unseeded", function()
        randomize()
        for i = 1, 8 do it("u" .. i, function() end) end
      end)
      describe("kept", function()
        randomize(false)
        for i = 1, 3 do it("k" .. i, function() end) end
      end)
      it("refuses inside a case", function() randomize() end)

      """
    ])
    defer { try? FileManager.default.removeItem(at: folder) }
    func order(_ stdout: String, _ prefix: String) -> [String] {
      stdout.split(separator: "\n").compactMap { line in
        line.split(separator: " ").first { $0.hasPrefix(prefix) && $0.count == 2 }.map { String($0.dropFirst()) }
      }
    }
    let first = try CLI.run(["test", "spec"], in: folder).stdout
    let shuffle = try CLI.shell(
      "lua5.4 -e 't={1,2,3,4,5,6,7,8} math.randomseed(42) for n=#t,2,-1 do local k=math.random(n)"
        + " t[n],t[k]=t[k],t[n] end print(table.concat(t,\" \"))'", in: folder)
    #expect(order(first, "s").joined(separator: " ") == shuffle.output.trimmingCharacters(in: .whitespacesAndNewlines))
    #expect(order(first, "u") != (1...8).map(String.init), "shuffled")
    #expect(order(first, "u") == order(try CLI.run(["test", "spec"], in: folder).stdout, "u"), "the same each run")
    #expect(order(first, "k") == ["1", "2", "3"])
    #expect(first.contains("spec/shuffled_spec.lua:13: 'randomize' not supported inside current context block"))
  }

  /// `--shuffle` (busted's `--shuffle-tests`) shuffles every block as `randomize()` does,
  /// with `--seed` (busted's) or the file's own; `randomize(false)` still keeps a block's order.
  @Test func shuffleAndSeedShuffleEveryBlockAsBustedDoes() throws {
    let folder = try cases.suite([
      "spec/top_spec.lua": """
      for i = 1, 8 do it("t" .. i, function() end) end
      describe("kept", function()
        randomize(false)
        for i = 1, 3 do it("k" .. i, function() end) end
      end)

      """
    ])
    defer { try? FileManager.default.removeItem(at: folder) }
    func order(_ arguments: [String], _ prefix: String) throws -> [String] {
      try CLI.run(["test", "spec"] + arguments, in: folder).stdout.split(separator: "\n").compactMap { line in
        line.split(separator: " ").first { $0.hasPrefix(prefix) && $0.count == 2 }.map { String($0.dropFirst()) }
      }
    }
    // The file's block holds the 8 cases and then `kept`: busted's shuffle of 9 children.
    let shuffle = try CLI.shell(
      "lua5.4 -e 't={1,2,3,4,5,6,7,8,9} math.randomseed(42) for n=#t,2,-1 do local k=math.random(n)"
        + " t[n],t[k]=t[k],t[n] end for _, v in ipairs(t) do if v < 9 then io.write(v, \" \") end end'", in: folder)
    let expected = shuffle.output.split(separator: " ").map(String.init).filter { !$0.isEmpty && $0 != "\n" }
    #expect(try order(["--shuffle", "--seed", "42"], "t") == expected)
    #expect(try order(["--shuffle-tests", "--seed", "42"], "t") == expected)
    let unseeded = try order(["--shuffle"], "t"), again = try order(["--shuffle"], "t")
    #expect(unseeded != (1...8).map(String.init) && unseeded == again, "shuffled, the same each run")
    #expect(try order([], "t") == (1...8).map(String.init), "in order without --shuffle")
    #expect(try order(["--shuffle"], "k") == ["1", "2", "3"], "randomize(false) wins")
    let bad = try CLI.run(["test", "spec", "--seed", "soon"], in: folder)
    #expect(bad.status == 2 && bad.stderr.contains("--seed soon: expected a whole number"), "\(bad.stderr)")
  }

  @Test func tagsChooseCasesByFullNameAndExcludedTagsLeaveOutBlocks() throws {
    let folder = try cases.suite([
      "tests/tags_spec.lua": """
      describe("api #net", function()
        it("fetches", function() end)
        it("caches #fast", function() end)
      end)
      describe("slow #slow", function()
        error("an excluded describe's body never runs")
      end)
      it("adds #fast", function() end)
      pending("someday #fast")

      """
    ])
    defer { try? FileManager.default.removeItem(at: folder) }
    let tagged = try CLI.run(["test", "tests", "--tags", "fast", "--exclude-tags=slow"], in: folder)
    #expect(
      cases.cases(tagged.stdout) == ["api #net caches #fast": "pass", "adds #fast": "pass", "someday #fast": "skip"],
      "\(tagged.stdout)")
    let two = try CLI.run(["test", "tests", "--tags=net,fast", "--exclude-tags", "slow"], in: folder)
    #expect(two.stdout.hasSuffix("\n3 passed, 0 failed, 1 skipped\n"), "\(two.stdout)")
    let excluded = try CLI.run(["test", "tests", "--exclude-tags", "net,slow", "--exclude-tags", "fast"], in: folder)
    #expect(excluded.stdout == "0 passed, 0 failed\n", "\(excluded.stdout)")
    let bad = try CLI.run(["test", "tests", "--tags", "a%"], in: folder)
    #expect(bad.status == 2)
    #expect(bad.stderr.contains("--tags a%: not a Lua pattern"), "\(bad.stderr)")
  }
}
