/// How Lua values print in plugins and scripts, the same on every run: `inspect`, `print`,
/// `tostring`, `map:log` and the messages of failed expectations never show a memory
/// address (docs/plugins.md, "Printing values").
///
/// - tables: `{ 1, 2, name = "x", ["two words"] = true, [10] = false }`: the sequence
///   1..n first, then the other keys sorted (numbers, strings, booleans, then the rest by
///   their text); a table inside itself is `<cycle>`, deeper than 16 levels `{...}`;
/// - strings inside tables quoted, with `\n`, `\t`, `\"` and `\ddd` escapes;
/// - markers `marker "sydney"`, overlays `overlay "route"`, the map `map`;
/// - functions `<function>`, coroutines `<thread>`, other userdata `<NAME>`;
/// - a value with a `__tostring` metamethod prints what it returns;
/// - numbers as Lua prints them, NaN as `nan`;
/// - at most 64 KiB of text, then `…`.
///
/// Trusted Lua run with the real globals before the sandbox's prelude; the functions it
/// returns run inside the plugin's or script's calls, so they count against its budgets.
enum ValueRendering {
  /// The chunk: returns a table `{ inspect, tostring, join, first_difference, show }`.
  static let source = #"""
    local type, next, rawget, rawequal, pcall, tostring, tonumber, select, ipairs =
      type, next, rawget, rawequal, pcall, tostring, tonumber, select, ipairs
    local getmetatable = debug.getmetatable
    local format, byte, find, gsub = string.format, string.byte, string.find, string.gsub
    local sort, concat = table.sort, table.concat
    local mtype = math.type

    local LIMIT, MAX_DEPTH = 65536, 16

    local keywords = {}
    for word in string.gmatch("and break do else elseif end false for function goto if in local nil not or " ..
      "repeat return then true until while", "%a+") do
      keywords[word] = true
    end

    local function metafield(value, name)
      local mt = getmetatable(value)
      if type(mt) ~= "table" then return nil end
      return rawget(mt, name)
    end

    local function number_text(n)
      if n ~= n then return "nan" end
      return tostring(n)
    end

    local escapes = { ["\n"] = "\\n", ["\t"] = "\\t", ["\r"] = "\\r", ['"'] = '\\"', ["\\"] = "\\\\" }
    local function quote(s)
      return '"' .. gsub(s, '[%c"\\]', function(c) return escapes[c] or format("\\%03d", byte(c)) end) .. '"'
    end

    local function is_identifier(k)
      return type(k) == "string" and find(k, "^[%a_][%w_]*$") ~= nil and not keywords[k]
    end

    -- What __tostring returns, or nil when there is none.
    local function custom_text(value)
      if metafield(value, "__tostring") == nil then return nil end
      local ok, text = pcall(tostring, value)
      if ok then return text end
      return "<__tostring failed: " .. (type(text) == "string" and text or type(text)) .. ">"
    end

    local render

    -- A value's text on its own (for sorting keys that are neither numbers, strings nor booleans).
    local function text_of(value)
      local out, state = {}, { size = 0, active = {} }
      render(value, out, state, 0)
      return concat(out)
    end

    local rank = { number = 1, string = 2, boolean = 3 }
    -- The keys of `t` (or of both tables) in print order: numbers ascending, strings by bytes,
    -- false before true, the rest by their text (then by their value's text in `t`).
    local function ordered(keys, t)
      local texts = {}
      local function text(k)
        local cached = texts[k]
        if cached == nil then
          cached = text_of(k) .. "\0" .. (t and text_of(rawget(t, k)) or "")
          texts[k] = cached
        end
        return cached
      end
      sort(keys, function(a, b)
        local ra, rb = rank[type(a)] or 4, rank[type(b)] or 4
        if ra ~= rb then return ra < rb end
        if ra <= 2 then return a < b end
        if ra == 3 then return b and not a end
        return text(a) < text(b)
      end)
      return keys
    end

    local function emit(out, state, piece)
      if state.size > LIMIT then
        state.cut = true
        return false
      end
      out[#out + 1] = piece
      state.size = state.size + #piece
      return true
    end

    local function render_table(t, out, state, depth)
      local n = 0
      while rawget(t, n + 1) ~= nil do n = n + 1 end
      local keys = {}
      for k in next, t do
        if not (mtype(k) == "integer" and k >= 1 and k <= n) then keys[#keys + 1] = k end
      end
      if n == 0 and #keys == 0 then return emit(out, state, "{}") end
      ordered(keys, t)
      emit(out, state, "{ ")
      for i = 1, n do
        if i > 1 then emit(out, state, ", ") end
        render(rawget(t, i), out, state, depth + 1)
        if state.cut then return end
      end
      for i, k in ipairs(keys) do
        if n > 0 or i > 1 then emit(out, state, ", ") end
        if is_identifier(k) then
          emit(out, state, k .. " = ")
        else
          emit(out, state, "[")
          render(k, out, state, depth + 1)
          emit(out, state, "] = ")
        end
        render(rawget(t, k), out, state, depth + 1)
        if state.cut then return end
      end
      emit(out, state, " }")
    end

    render = function(value, out, state, depth)
      local kind = type(value)
      if kind == "string" then return emit(out, state, quote(value)) end
      if kind == "number" then return emit(out, state, number_text(value)) end
      if kind == "nil" or kind == "boolean" then return emit(out, state, tostring(value)) end
      if kind == "function" then return emit(out, state, "<function>") end
      if kind == "thread" then return emit(out, state, "<thread>") end
      local custom = custom_text(value)
      if custom then return emit(out, state, custom) end
      if kind ~= "table" then
        local name = metafield(value, "__name")
        return emit(out, state, "<" .. (type(name) == "string" and name or kind) .. ">")
      end
      if state.active[value] then return emit(out, state, "<cycle>") end
      if depth >= MAX_DEPTH then return emit(out, state, "{...}") end
      state.active[value] = true
      render_table(value, out, state, depth)
      state.active[value] = nil
    end

    local function inspect(value)
      local out, state = {}, { size = 0, active = {} }
      render(value, out, state, 0)
      if state.cut then out[#out + 1] = "…" end
      return concat(out)
    end

    -- tostring without addresses: strings, numbers, booleans and nil as Lua prints them,
    -- everything else as inspect shows it.
    local function stable_tostring(value)
      local kind = type(value)
      if kind == "string" then return value end
      if kind == "number" then return number_text(value) end
      if kind == "nil" or kind == "boolean" then return tostring(value) end
      return inspect(value)
    end

    -- The tostring of plugins and scripts: Lua's argument check, then a __tostring as Lua
    -- calls it (its errors raised, a result that is neither a string nor a number refused),
    -- else stable_tostring.
    local function checked_tostring(...)
      if select("#", ...) == 0 then error("bad argument #1 to 'tostring' (value expected)", 2) end
      local value = ...
      local custom = metafield(value, "__tostring")
      if custom == nil then return stable_tostring(value) end
      local text = custom(value)
      if type(text) == "number" then return number_text(text) end
      if type(text) ~= "string" then error("'__tostring' must return a string", 2) end
      return text
    end

    -- What print writes: its arguments through stable_tostring, joined by tabs. Past the
    -- bytes a log record keeps (LIMIT, less room for the note), the parts are only measured,
    -- never joined (a hundred arguments of 8 MiB must not build 800 MiB): the text is cut
    -- at a character boundary with the note the host gives a long message.
    local function join(...)
      local room, parts, kept, total = LIMIT - 128, {}, 0, 0
      for i = 1, select("#", ...) do
        local part = stable_tostring((select(i, ...)))
        local size = #part + (i > 1 and 1 or 0)
        if kept + size > room and kept < room then
          local cut = room - kept - (i > 1 and 1 or 0)
          while cut > 0 and (byte(part, cut + 1) or 0) & 0xC0 == 0x80 do cut = cut - 1 end
          part = part:sub(1, cut)
          parts[#parts + 1] = part
          kept = room
        elseif kept < room then
          parts[#parts + 1] = part
          kept = kept + size
        end
        total = total + size
      end
      local text = concat(parts, "\t")
      if total <= #text then return text end
      return text .. "… (" .. (total - #text) .. " more bytes)"
    end

    -- A value in an expectation's message: strings quoted, floats with every digit that
    -- tells them apart, the rest as inspect shows it.
    local function show(value)
      if type(value) == "string" then return quote(value) end
      if mtype(value) == "float" and value == value then
        local short = format("%.15g", value)
        if tonumber(short) == value then return short end
        return format("%.17g", value)
      end
      return inspect(value)
    end

    local function path_part(k)
      if is_identifier(k) then return "." .. k end
      return "[" .. text_of(k) .. "]"
    end

    -- Where two values first differ, compared deeply (tables key by key, in print order;
    -- anything else with ==): the path ("" for the values themselves) and both sides, or
    -- nil when they are equal. Tables with an __eq metamethod are compared with it.
    local function first_difference(actual, expected, path, seen, depth)
      if rawequal(actual, expected) then return nil end
      path, depth = path or "", depth or 0
      if type(actual) ~= "table" or type(expected) ~= "table" or metafield(actual, "__eq") ~= nil
        or metafield(expected, "__eq") ~= nil or depth > 64 then
        if actual == expected then return nil end
        return path, actual, expected
      end
      seen = seen or {}
      local pairs_seen = seen[actual]
      if pairs_seen == nil then
        pairs_seen = {}
        seen[actual] = pairs_seen
      end
      if pairs_seen[expected] then return nil end -- compared further up: a cycle
      pairs_seen[expected] = true
      local keys, present = {}, {}
      for _, t in ipairs({ expected, actual }) do
        for k in next, t do
          if not present[k] then
            present[k] = true
            keys[#keys + 1] = k
          end
        end
      end
      for _, k in ipairs(ordered(keys)) do
        local where, a, b = first_difference(rawget(actual, k), rawget(expected, k), path .. path_part(k), seen, depth + 1)
        if where then return where, a, b end
      end
      return nil
    end

    return { inspect = inspect, tostring = checked_tostring, join = join, show = show,
      first_difference = first_difference }
    """#
}
