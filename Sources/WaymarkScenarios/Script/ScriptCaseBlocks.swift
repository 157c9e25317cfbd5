extension ScriptCases {
  /// The blocks of a test file as busted 2 runs them, in trusted Lua run with the real
  /// globals (docs/testing.md, "Cases inside a file"). It receives the script's environment,
  /// the seed of `math.random` and the options (`filters`, `tags`, `exclude`, `listing`),
  /// installs busted's test globals there and returns the table the session drives the run
  /// with:
  ///
  /// - `declares()`: whether the file's chunk declared any block or case;
  /// - `start()`: the chunk is over, nothing may be declared but inside a describe's body;
  /// - `next(ok)`: the next step of the run, `ok` saying whether the last `call` succeeded:
  ///   `"call", fn, label, line` (call `fn`; `label` names an error outside a case, nil
  ///   inside one), `"begin", name, line` and `"end", pending` around a case,
  ///   `"pending", name, line` (declared pending), `"list", name, line` (`listing`), nil
  ///   at the end;
  /// - `is_pending()`: whether the case running now called `pending()` (the error its call
  ///   raised says so, and is no failure).
  ///
  /// A walk in a coroutine decides the steps; every function of the file is called by the
  /// session outside it, so budgets and errors treat them as any call of the script. A
  /// describe's body runs when the walk reaches it, as in busted: then its `setup`s, its
  /// blocks and cases in order, its `lazy_teardown`s (if a case of it ran) and
  /// `teardown`s. A case runs its blocks' pending `lazy_setup`s first (once each), then the
  /// `before_each` functions from the outermost block in (a block whose `before_each`
  /// failed stops them, and the case's function does not run), the function and its
  /// `finally`, then the `after_each` functions from that block out.
  static let blocksPrelude = #"""
    local env, seed, options = ...
    local getinfo, type, error, tostring, ipairs, next, rawset = debug.getinfo, type, error, tostring, ipairs, next, rawset
    local find, randomseed, random, insert = string.find, math.randomseed, math.random, table.insert
    local create, resume, yield, status = coroutine.create, coroutine.resume, coroutine.yield, coroutine.status

    local function new_block(name, parent, kind, line, body)
      return { name = name, parent = parent, kind = kind, line = line, body = body, children = {},
        full = (parent == nil or parent.full == "") and name or parent.full .. " " .. name,
        before_each = {}, after_each = {}, lazy_setup = {}, lazy_teardown = {},
        strict_setup = {}, strict_teardown = {} }
    end
    local root = new_block("", nil, "file", 0)
    local declaring = root   -- the block whose body runs now (nil while hooks and cases run)
    local running = nil      -- the case running now
    local in_body = false    -- whether its own function runs now (finally may be called)
    local pending_signal = false

    local function line_of_caller()
      local info = getinfo(3, "l")
      return info and info.currentline or 0
    end
    local function refuse_outside(what, level)
      if not declaring then
        error(what .. ": cases are declared at the top of a test file or inside describe, not while one runs", level + 1)
      end
    end
    local function check(what, name, body, optional)
      refuse_outside(what, 3)
      if type(name) ~= "string" then
        error("bad argument #1 to '" .. what .. "' (string expected, got " .. type(name) .. ")", 3)
      end
      if not (type(body) == "function" or (optional and body == nil)) then
        error("bad argument #2 to '" .. what .. "' (function expected, got " .. type(body) .. ")", 3)
      end
    end

    local function block(kind)
      return function(name, body)
        if body == nil and type(name) == "string" then
          -- busted's curried form, describe "name" (function() ... end): declared when the
          -- function comes, at the line of the name.
          refuse_outside(kind, 2)
          local line = line_of_caller()
          return function(later)
            check(kind, name, later)
            insert(declaring.children, new_block(name, declaring, kind, line, later))
          end
        end
        check(kind, name, body)
        insert(declaring.children, new_block(name, declaring, kind, line_of_caller(), body))
      end
    end
    env.describe, env.context = block("describe"), block("context")
    env.insulate, env.expose = block("insulate"), block("expose")

    local function case(what)
      return function(name, body)
        check(what, name, body, true)
        local c = { case = true, name = name, parent = declaring, line = line_of_caller(), body = body,
          pending = body == nil }
        insert(declaring.children, c)
        if body ~= nil then return end
        -- Pending until busted's curried form, it "name" (function() ... end), gives the function.
        return function(later)
          check(what, name, later)
          c.body, c.pending = later, false
        end
      end
    end
    env.it, env.spec, env.test = case("it"), case("spec"), case("test")
    env.pending = function(name, body)
      if running then  -- inside a case: the case is pending from here on (busted)
        pending_signal = true
        error("pending: " .. tostring(name), 2)
      end
      check("pending", name, body, true)
      insert(declaring.children, { case = true, name = name, parent = declaring, line = line_of_caller(), pending = true })
    end

    -- busted's randomize([flag][, seed]): the block being declared runs its blocks and cases
    -- in an order shuffled as busted shuffles them; the default seed is --seed's, else the
    -- file's, not the clock's, so a run repeats. false: the block keeps its order, even with
    -- --shuffle.
    local shuffle_seed = options.seed or seed
    env.randomize = function(...)
      if not declaring then error("'randomize' not supported inside current context block", 2) end
      local on = select("#", ...) == 0 or ...
      declaring.shuffle = on and (tonumber((...)) or tonumber((select(2, ...))) or shuffle_seed) or false
    end

    local function hook(what, key)
      return function(body)
        if not declaring then error(what .. ": declared inside a case; declare it inside describe", 2) end
        if type(body) ~= "function" then
          error("bad argument #1 to '" .. what .. "' (function expected, got " .. type(body) .. ")", 2)
        end
        insert(declaring[key], { fn = body, line = line_of_caller(), what = what })
      end
    end
    env.before_each, env.after_each = hook("before_each", "before_each"), hook("after_each", "after_each")
    env.setup, env.teardown = hook("setup", "strict_setup"), hook("teardown", "strict_teardown")
    env.strict_setup, env.strict_teardown = hook("strict_setup", "strict_setup"), hook("strict_teardown", "strict_teardown")
    env.lazy_setup, env.lazy_teardown = hook("lazy_setup", "lazy_setup"), hook("lazy_teardown", "lazy_teardown")
    env.finally = function(body)
      if not in_body then error("finally: only inside an it, while its function runs", 2) end
      if type(body) ~= "function" then
        error("bad argument #1 to 'finally' (function expected, got " .. type(body) .. ")", 2)
      end
      running.finally = body
    end

    local function tagged(name, list)
      for _, tag in ipairs(list) do
        if find(name, "#" .. tag) then return true end
      end
      return false
    end
    -- busted's filters: an excluded tag in a block's or case's own name leaves it out; with
    -- tags, a case runs only when its full name has one; with filters, only when its full
    -- name matches one.
    local function selected(c, full)
      if tagged(c.name, options.exclude) then return false end
      if #options.tags > 0 and not tagged(full, options.tags) then return false end
      if #options.filters == 0 then return true end
      for _, pattern in ipairs(options.filters) do
        if find(full, pattern) then return true end
      end
      return false
    end

    local function call(fn, label, line) return yield("call", fn, label, line) end
    local function label(b, what)
      if b.full == "" then return what end
      return what and b.full .. " " .. what or b.full
    end
    local function run_hooks(b, key)
      local ok = true
      for _, h in ipairs(b[key]) do
        if not call(h.fn, label(b, h.what), h.line) then ok = false end
      end
      return ok
    end
    -- busted's execAllOnce: each block's lazy_setup functions run once, from the root down.
    local function lazy_ready(b)
      if b.parent and not lazy_ready(b.parent) then return false end
      if b.lazy_ok == nil then b.lazy_ok = run_hooks(b, "lazy_setup") end
      return b.lazy_ok
    end

    local function run_case(c)
      local full = c.parent.full == "" and c.name or c.parent.full .. " " .. c.name
      if not selected(c, full) then return end
      if options.listing then return yield("list", full, c.line) end
      if c.pending then return yield("pending", full, c.line) end
      if not lazy_ready(c.parent) then return end  -- its lazy_setup failed, and said so
      randomseed(seed)
      yield("begin", full, c.line)
      running, c.finally = c, nil
      local chain, b = {}, c.parent
      while b do insert(chain, 1, b); b = b.parent end
      local reached, ok = #chain, true
      for i, outer in ipairs(chain) do
        for _, h in ipairs(outer.before_each) do
          if not call(h.fn) then ok = false end
        end
        if not ok then reached = i; break end
      end
      if ok then
        in_body = true
        call(c.body)
        in_body = false
        if c.finally then call(c.finally) end
      end
      for i = reached, 1, -1 do
        for _, h in ipairs(chain[i].after_each) do call(h.fn) end
      end
      running = nil
      local pending = pending_signal
      pending_signal = false
      yield("end", pending)
    end

    local function snapshot()
      local copy = { globals = {} }
      for k, v in next, env do copy.globals[k] = v end
      local package = copy.globals.package
      if type(package) == "table" and type(package.loaded) == "table" then
        copy.loaded, copy.modules = package.loaded, {}
        for k, v in next, package.loaded do copy.modules[k] = v end
      end
      return copy
    end
    local function restore(copy)
      for k in next, env do
        if copy.globals[k] == nil then rawset(env, k, nil) end
      end
      for k, v in next, copy.globals do rawset(env, k, v) end
      if copy.loaded then
        for k in next, copy.loaded do
          if copy.modules[k] == nil then copy.loaded[k] = nil end
        end
        for k, v in next, copy.modules do copy.loaded[k] = v end
      end
    end

    local function run_block(b)
      local saved
      if b.kind ~= "file" then
        if tagged(b.name, options.exclude) then return end
        if b.kind == "insulate" then saved = snapshot() end
        declaring = b
        local ok = call(b.body, label(b), b.line)
        declaring = nil
        if not ok then
          if saved then restore(saved) end
          return
        end
      end
      local order = b.shuffle
      if order == nil and options.shuffle then order = shuffle_seed end
      if order then  -- busted's utils.shuffle, with its seed
        randomseed(order)
        local children = b.children
        for n = #children, 2, -1 do
          local k = random(n)
          children[n], children[k] = children[k], children[n]
        end
      end
      local ok = options.listing or run_hooks(b, "strict_setup")
      if ok then
        for _, child in ipairs(b.children) do
          if child.case then run_case(child) else run_block(child) end
        end
      end
      if not options.listing then
        if b.lazy_ok ~= nil then
          b.lazy_ok = nil
          run_hooks(b, "lazy_teardown")
        end
        run_hooks(b, "strict_teardown")
      end
      if saved then restore(saved) end
    end

    local walk = create(function() run_block(root) end)
    return {
      declares = function() return #root.children > 0 end,
      start = function() declaring = nil end,
      next = function(ok)
        if status(walk) == "dead" then return nil end
        local done, kind, a, b, c = resume(walk, ok)
        if not done then error(kind, 0) end
        return kind, a, b, c
      end,
      is_pending = function() return pending_signal end,
    }
    """#
}
