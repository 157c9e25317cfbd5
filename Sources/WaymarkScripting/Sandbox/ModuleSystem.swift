import LuaKit

/// What a sandbox gives pure-Lua libraries to load with (docs/plugins.md, "Helper modules"):
/// Lua 5.4's `require` and `package` (`loaded`, `preload`, `path`, `cpath`, `config`,
/// `searchers`, `searchpath`), a read-only `debug.getinfo`, and an `io` whose `write`,
/// `stdout` and `stderr` print to the trace and whose file functions refuse.
///
/// Files are the host's business (``ModuleHooks``): the searchers find a module's file in the
/// requiring file's folder, then through `package.path` (the module roots), and only where
/// the host allows; a C module is refused.
package enum ModuleSystem {
  /// The configuration lines of Lua's `package.config` on a POSIX system.
  static let config = "/\n;\n?\n!\n-\n"

  /// Installs `require`, `package`, `io` and `debug.getinfo` into the globals table at
  /// `environment`. Stack: balanced.
  static func install(into environment: Int32, on stack: LuaStack, hooks: ModuleHooks) throws(LuaError) {
    let environment = stack.absoluteIndex(environment)
    try stack.load(source, chunkName: "=(sandbox)")
    stack.pushValue(at: environment)
    stack.push(function: "search", hooks.search)
    stack.push(function: "search_c", hooks.searchC)
    stack.push(function: "readable", hooks.isReadable)
    stack.push(function: "load_file", hooks.loadFile)
    stack.push(hooks.path)
    stack.push(hooks.cpath)
    stack.push(config)
    stack.newTable()
    for (name, message) in PluginSandbox.refusals where name.hasPrefix("io.") || name.hasPrefix("package.") {
      stack.push(message)
      stack.rawSetField(name, ofTableAt: -2)
    }
    try stack.call(arguments: 9)
  }

  /// Lua source run with the real globals (trusted), given the plugin's environment.
  static let source = #"""
    local env, search, search_c, readable, load_file, path, cpath, config, refusals = ...
    local getinfo, running = debug.getinfo, coroutine.running
    local error, type, select, setmetatable, tostring, pcall = error, type, select, setmetatable, tostring, pcall
    local concat, format, byte = table.concat, string.format, string.byte
    local math_type = math.type

    -- io: write, stdout and stderr print to the trace (one log line per call, its final
    -- newline dropped); the file functions refuse.
    local log = env.print
    local stdout, stderr
    local function write(file, level, ...)
      local parts = {}
      for i = 1, select("#", ...) do
        local value = select(i, ...)
        local kind = math_type(value)
        if kind == "float" then value = format("%.14g", value)
        elseif kind == "integer" then value = format("%d", value)
        elseif type(value) ~= "string" then
          error(format("bad argument #%d to 'write' (string expected, got %s)", i, type(value)), level)
        end
        parts[i] = value
      end
      local text = concat(parts)
      if text == "" then return file end
      -- print's own errors (the log budget) at the writer's line, not this one's
      local ok, message = pcall(log, (text:gsub("\n$", "")))
      if not ok then error((tostring(message):gsub("^%(sandbox%):%d+: ", "")), level) end
      return file
    end
    local function refusing(name, library)
      local message = refusals[(library or "io") .. "." .. name]
      return function() error(message, 2) end
    end
    local file_methods = {
      write = function(self, ...)
        if self ~= stdout and self ~= stderr then error("bad argument #1 to 'write' (FILE* expected)", 2) end
        return write(self, 3, ...)
      end,
      flush = function(self) return self end,
      setvbuf = function() return true end,
      close = function() return nil, "cannot close standard file" end,
      lines = refusing("lines"),
      read = refusing("read"),
      seek = refusing("seek"),
    }
    local file_meta = {
      __name = "FILE*",
      __index = file_methods,
      __metatable = false,
    }
    stdout = setmetatable({}, file_meta)
    stderr = setmetatable({}, file_meta)
    file_meta.__tostring = function(self) return self == stdout and "file (stdout)" or "file (stderr)" end
    local io = {
      stdout = stdout,
      stderr = stderr,
      write = function(...) return write(stdout, 3, ...) end,
      flush = function() end,
      type = function(value) if value == stdout or value == stderr then return "file" end return nil end,
      output = function(file)
        if file == nil or file == stdout then return stdout end
        error(refusals["io.output"], 2)
      end,
    }
    for _, name in ipairs({ "open", "lines", "read", "input", "close", "popen", "tmpfile" }) do
      io[name] = refusing(name)
    end

    -- loadfile and dofile read what require could (the host's rules), never standard input;
    -- a chunk compiles with the plugin's environment, or the one given, as Lua's.
    local setupvalue = debug.setupvalue
    env.loadfile = function(filename, mode, ...)
      if filename == nil then
        error("loadfile: standard input is not available: plugins and scripts run in a sandbox without files", 2)
      end
      if type(filename) ~= "string" then
        error("bad argument #1 to 'loadfile' (string expected, got " .. type(filename) .. ")", 2)
      end
      if type(mode) == "string" and not mode:find("t", 1, true) then
        return nil, "attempt to load a text chunk (mode is '" .. mode .. "')"
      end
      local chunk, message = load_file(filename)
      if not chunk then return nil, message end
      if select("#", ...) > 0 then setupvalue(chunk, 1, (...)) end
      return chunk
    end
    env.dofile = function(filename)
      if filename == nil then
        error("dofile: standard input is not available: plugins and scripts run in a sandbox without files", 2)
      end
      local chunk, message = env.loadfile(filename)
      if not chunk then error(message, 2) end
      return chunk()
    end

    -- debug.getinfo, read-only: a level counts from the caller as Lua's does, and `func` is
    -- given only for the plugin's own code (never a function of the host's).
    local function own(info)
      local source = info and info.source
      return source ~= nil and byte(source, 1) ~= 61 -- '='
    end
    env.debug.getinfo = function(...)
      local thread, target, what
      if type((...)) == "thread" then thread, target, what = ... else target, what = ... end
      if thread == running() then thread = nil end
      -- Levels count from the caller: past this function, probe and its pcall.
      if type(target) == "number" and not thread and target > 0 then target = target + 3 end
      local function probe(options)
        if thread then return pcall(getinfo, thread, target, options) end
        return pcall(getinfo, target, options)
      end
      local ok, info = probe(what)
      if not ok then
        -- Lua's own message, raised at the caller, not at this function's line.
        local message = tostring(info):gsub("^[^\n]-:%d+: ", "")
        error((message:gsub("to '[%w%.?]*getinfo'", "to 'debug.getinfo'"):gsub("to '%?'", "to 'debug.getinfo'")), 2)
      end
      if info and info.func and type(target) == "number" then
        local _, described = probe("S")
        if not own(described) then info.func = nil end
      end
      return info
    end

    -- package and require, as Lua 5.4's loadlib.c.
    local package = { config = config, path = path, cpath = cpath, loaded = {}, preload = {} }
    local loaded = package.loaded
    for _, name in ipairs({ "string", "table", "math", "utf8", "coroutine", "os", "debug" }) do
      loaded[name] = env[name]
    end
    loaded._G, loaded.package, loaded.io = env, package, io

    local function replace(text, pattern, by)
      return (text:gsub(pattern, function() return by end))
    end
    function package.searchpath(name, template, sep, rep)
      if type(name) ~= "string" then error("bad argument #1 to 'searchpath' (string expected, got " .. type(name) .. ")", 2) end
      if type(template) ~= "string" then error("bad argument #2 to 'searchpath' (string expected, got " .. type(template) .. ")", 2) end
      sep, rep = sep or ".", rep or "/"
      if sep ~= "" then name = replace(name, sep:gsub("%p", "%%%0"), rep) end
      local tried = {}
      for entry in template:gmatch("[^;]+") do
        local file = replace(entry, "%?", name)
        if readable(file) then return file end
        tried[#tried + 1] = "\n\tno file '" .. file .. "'"
      end
      return nil, concat(tried)
    end

    -- The file whose code called require: the innermost caller that is a file (a chunk
    -- name "@path"); the host uses it only if it is a file it loaded itself.
    local requirer
    local function caller()
      for level = 3, 250 do
        local info = getinfo(level, "S")
        if not info then return nil end
        if byte(info.source, 1) == 64 then return info.source:sub(2) end -- '@'
      end
    end

    -- LuaFileSystem, which Penlight's pl.path requires as it loads (pl.dir, pl.file and
    -- pl.app require pl.path): when its C library is installed, require("lfs") gives its
    -- functions, each refusing when called and naming the file, never the C code; the
    -- libraries that keep them load, and their string functions (pl.path.join) work.
    local stand_ins = {
      lfs = function(_, library)
        local lfs = {}
        for _, name in ipairs({ "attributes", "chdir", "currentdir", "dir", "link", "lock", "lock_dir", "mkdir",
          "rmdir", "setmode", "symlinkattributes", "touch", "unlock" }) do
          local message = "lfs." .. name .. " is not available: plugins and scripts run in a sandbox without files; lfs "
            .. "is a C library (" .. library .. "), never loaded: require gives its functions, each refusing when called"
          lfs[name] = function() error(message, 2) end
        end
        return lfs
      end,
    }

    local function searched(found, message, refused)
      if refused then error(message, 4) end
      if found then return found, message end
      return message
    end
    package.searchers = {
      function(name)
        local preload = package.preload
        if type(preload) ~= "table" then error("'package.preload' must be a table", 3) end
        local loader = preload[name]
        if loader == nil then return "\n\tno field package.preload['" .. name .. "']" end
        return loader, ":preload:"
      end,
      function(name)
        if type(package.path) ~= "string" then error("'package.path' must be a string", 3) end
        local found, extra = searched(search(name, requirer, package.path))
        return found, extra
      end,
      function(name)
        if type(package.cpath) ~= "string" then error("'package.cpath' must be a string", 3) end
        local found, message, refused, library = search_c(name, package.cpath)
        if refused and stand_ins[name] then return stand_ins[name], library end
        local loader, extra = searched(found, message, refused)
        return loader, extra
      end,
    }

    local loading = {}
    env.require = function(name)
      if type(name) ~= "string" then
        if math_type(name) then name = tostring(name)
        else error("bad argument #1 to 'require' (string expected, got " .. type(name) .. ")", 2) end
      end
      local value = loaded[name]
      if value then return value end
      if loading[name] then
        local chain = {}
        for i = 1, #loading do chain[i] = loading[i] end
        chain[#chain + 1] = name
        error("loop or previous error loading module '" .. name .. "' (it requires itself: "
          .. concat(chain, " -> ") .. ")", 2)
      end
      local searchers = package.searchers
      if type(searchers) ~= "table" then error("'package.searchers' must be a table", 2) end
      requirer = caller()
      local messages, loader, extra = {}
      for i = 1, #searchers do
        loader, extra = searchers[i](name)
        if type(loader) == "function" then break end
        if type(loader) == "string" then messages[#messages + 1] = loader end
        loader = nil
      end
      if not loader then error("module '" .. name .. "' not found:" .. concat(messages), 2) end
      loading[name] = true
      loading[#loading + 1] = name
      local done <close> = setmetatable({}, { __close = function()
        loading[name] = nil
        loading[#loading] = nil
      end })
      local result = loader(name, extra)
      if result ~= nil then
        loaded[name] = result
      elseif loaded[name] == nil then
        loaded[name] = true
      end
      return loaded[name], extra
    end
    env.package, env.io = package, io
    -- package.loadlib reads as a function that refuses when called, as os.getenv does.
    local loadlib = refusing("loadlib", "package")
    setmetatable(package, { __index = function(_, key)
      if key == "loadlib" then return loadlib end
    end })
    """#
}

/// What the host does for a sandbox's module system: find files and say what was refused.
/// Each function returns `found, extra` or `nil, message[, true]` (`true`: refused, an
/// error at the caller's line), never raises.
package struct ModuleHooks {
  /// `search(name, requirer, path)`: the chunk of a Lua module (compiled with the plugin's
  /// environment) and its file, from the requiring file's folder then `path`'s templates.
  var search: LuaFunctionBody
  /// `search_c(name, cpath)`: refuses a module that is a C library (with the library's file
  /// as a fourth value: `lfs` is given as functions that refuse); otherwise the lines
  /// of what was looked for.
  var searchC: LuaFunctionBody
  /// `readable(file)`: whether `package.searchpath` may answer `file`.
  var isReadable: LuaFunctionBody
  /// `load_file(filename)`: the chunk of a Lua source file `require` could read, compiled with
  /// the plugin's environment, or nil and why (`loadfile`, `dofile`).
  var loadFile: LuaFunctionBody
  /// `package.path`'s first value.
  var path: String
  /// `package.cpath`'s first value.
  var cpath: String

  /// Hooks that find nothing (a sandbox read for its names, as `waymark check` does).
  static var none: ModuleHooks {
    ModuleHooks(
      search: { context in
        context.stack.pushNil()
        context.stack.push("")
        return 2
      },
      searchC: { context in
        context.stack.pushNil()
        context.stack.push("")
        return 2
      },
      isReadable: { context in
        context.stack.push(false)
        return 1
      },
      loadFile: { context in
        context.stack.pushNil()
        context.stack.push("cannot open \(try context.checkString(1))")
        return 2
      }, path: "", cpath: "")
  }
}
