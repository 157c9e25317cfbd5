import LuaKit
import WaymarkScripting

/// Files a test file reads (docs/testing.md, "What a test file reads"): busted suites read
/// their fixtures with `io.open(name)` and `io.lines(name)`, and the libraries they test do
/// too (lua_cliargs's configuration loaders, inifile). A test file's `io` opens for reading
/// what `require` could read (the project and the module roots, no link out of them, 4 MiB at
/// most), its name relative to the working directory as Lua's; a file is the whole of its
/// bytes, read at open. Writing modes, `io.read`, `io.input` and standard input stay refused:
/// a test reads, it never writes. Plugins and scripts keep the sandbox's `io` without files.
enum ScriptFileReading {
  /// Replaces `io.open`, `io.lines`, `io.close` and `io.type` of the environment at
  /// `environment` (a test file's), reading through `read` (``ModuleLoader/readFile``).
  /// Stack: balanced.
  static func install(into environment: Int32, on stack: LuaStack, read: @escaping LuaFunctionBody)
    throws(LuaError)
  {
    let environment = stack.absoluteIndex(environment)
    try stack.load(source, chunkName: "=(files)")
    stack.pushValue(at: environment)
    stack.push(function: "read_file", read)
    try stack.call(arguments: 2)
  }

  /// Trusted Lua run with the real globals, given the environment and the reader.
  static let source = #"""
    local env, read_file = ...
    local io = env.io
    local type, error, select, setmetatable, tostring, tonumber = type, error, select, setmetatable, tostring, tonumber
    local find, sub, match = string.find, string.sub, string.match
    local base_type, base_close = io.type, io.close

    local files = setmetatable({}, { __mode = "k" }) -- file -> { data, pos, closed }
    local methods = {}
    local meta = { __name = "FILE*", __index = methods, __metatable = false }
    meta.__close = function(f) files[f].closed = true end
    meta.__tostring = function(f) return files[f].closed and "file (closed)" or "file (" .. files[f].name .. ")" end

    local function state(f, name)
      local s = files[f]
      if not s then error("bad argument #1 to '" .. name .. "' (FILE* expected, got " .. type(f) .. ")", 3) end
      if s.closed then error("attempt to use a closed file", 3) end
      return s
    end

    local function read_one(s, format)
      local data, pos = s.data, s.pos
      if type(format) == "number" then
        if pos > #data then return nil end
        local text = sub(data, pos, pos + format - 1)
        s.pos = pos + #text
        return text
      end
      local kind = match(tostring(format), "^%*?([alLn])")
      if kind == "a" then
        s.pos = #data + 1
        return sub(data, pos)
      end
      if kind == nil then error("bad argument #1 to 'read' (invalid format)", 4) end
      if pos > #data then return nil end
      if kind == "n" then
        local first, last = find(data, "^%s*[-+]?[%w%.]+", pos)
        local number = first and tonumber(match(sub(data, first, last), "^%s*(.*)$"))
        if number then s.pos = last + 1 end
        return number
      end
      local stop = find(data, "\n", pos, true)
      s.pos = stop and stop + 1 or #data + 1
      if not stop then return sub(data, pos) end
      return sub(data, pos, kind == "L" and stop or stop - 1)
    end

    local function read(s, ...)
      local count = select("#", ...)
      if count == 0 then return read_one(s, "l") end
      local results = {}
      for i = 1, count do
        results[i] = read_one(s, (select(i, ...)))
        if results[i] == nil then return table.unpack(results, 1, i) end
      end
      return table.unpack(results, 1, count)
    end

    function methods.read(f, ...) return read(state(f, "read"), ...) end
    function methods.lines(f, ...)
      local s, formats = state(f, "lines"), table.pack(...)
      return function()
        if s.closed then error("file is already closed", 2) end
        return read(s, table.unpack(formats, 1, formats.n))
      end
    end
    function methods.close(f)
      state(f, "close").closed = true
      return true
    end
    function methods.seek(f, whence, offset)
      local s = state(f, "seek")
      whence, offset = whence or "cur", offset or 0
      local base = whence == "set" and 0 or whence == "cur" and s.pos - 1 or whence == "end" and #s.data
      if not base then error("bad argument #1 to 'seek' (invalid option '" .. tostring(whence) .. "')", 2) end
      if base + offset < 0 then return nil, "Invalid argument", 22 end
      s.pos = base + offset + 1
      return base + offset
    end
    function methods.write() return nil, "Bad file descriptor", 9 end
    function methods.flush(f) return f end
    function methods.setvbuf() return true end

    local function open(name, mode)
      if type(name) ~= "string" then error("bad argument #1 to 'open' (string expected, got " .. type(name) .. ")", 3) end
      mode = mode == nil and "r" or mode
      if type(mode) ~= "string" or not match(mode, "^[rwa]%+?b?$") then
        error("bad argument #2 to 'open' (invalid mode)", 3)
      end
      if mode ~= "r" and mode ~= "rb" then
        return nil, name .. ": Permission denied (a test file opens files for reading only)", 13
      end
      local data, why = read_file(name)
      if not data then return nil, name .. ": " .. why, 2 end
      local f = setmetatable({}, meta)
      files[f] = { name = name, data = data, pos = 1, closed = false }
      return f
    end

    io.open = function(name, mode) return open(name, mode) end
    io.lines = function(name, ...)
      if name == nil then
        error("io.lines: standard input is not available: a test file reads files only", 2)
      end
      local f, why = open(name, "r")
      if not f then error(why, 2) end
      local s, formats = files[f], table.pack(...)
      return function()
        if s.closed then return nil end
        local first = read(s, table.unpack(formats, 1, formats.n))
        if first == nil then s.closed = true end
        return first
      end, f, nil, f
    end
    io.close = function(f)
      if files[f] then return methods.close(f) end
      return base_close(f)
    end
    io.type = function(value)
      local s = files[value]
      if s then return s.closed and "closed file" or "file" end
      return base_type(value)
    end
    """#
}
