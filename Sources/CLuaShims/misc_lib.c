// The rest of the standard library functions that could run unbounded inside one C call, or
// that carry a published bug of Lua 5.4.4, rewritten with Lua 5.4's arguments and results:
// - string.rep: repeating the empty string 2^62 times looped that many times;
// - utf8.codes: skipped spurious continuation bytes instead of raising (bug fixed in 5.4.5);
// - load: the parser runs in one C call; the chunk now reaches it in slices, with the time
//   budget checked between them, and what it compiles is repaired (chunk_repair.c);
// - collectgarbage("collect"/"step"): a whole cycle in one call; now steps, checking the
//   budget between them; all options but "generational" (a 5.4.4 bug), and setmetatable
//   never gives an object a finalizer (`__gc`): what the collector does stays inside the
//   calls and their budgets;
// - xpcall: Lua runs a message handler from inside the hook that raised the budget's stop,
//   where hooks are off, so an endless handler could never be stopped; once the running
//   call is stopped the handler is skipped and the stop's message passes through.
#include <limits.h>
#include <string.h>

#include "internal.h"

// MARK: - string.rep

static int rep(lua_State *L) {
  size_t length, separator_length;
  const char *s = luaL_checklstring(L, 1, &length);
  lua_Integer n = luaL_checkinteger(L, 2);
  const char *separator = luaL_optlstring(L, 3, "", &separator_length);
  if (n <= 0 || length + separator_length == 0) {
    lua_pushliteral(L, "");
    return 1;
  }
  size_t unit = length + separator_length;
  if (unit < length || unit > (size_t)INT_MAX / (lua_Unsigned)n) {
    return luaL_error(L, "resulting string too large");
  }
  size_t total = (size_t)n * unit - separator_length;
  luaL_Buffer b;
  char *out = luaL_buffinitsize(L, &b, total);
  memcpy(out, s, length);
  if (total > length) memcpy(out + length, separator, separator_length);
  // Double what is written until it is done: O(log n) copies.
  size_t written = total > length ? unit : length;
  while (written < total) {
    size_t chunk = written < total - written ? written : total - written;
    memcpy(out + written, out, chunk);
    written += chunk;
  }
  luaL_pushresultsize(&b, total);
  return 1;
}

// MARK: - utf8.codes

enum { MAX_UNICODE = 0x10FFFF, MAX_UTF = 0x7FFFFFFF };

static int is_continuation(const char *s, const char *end) { return s < end && (*s & 0xC0) == 0x80; }

/// Decodes the sequence at s (before end) into *code; returns where the next one starts, or
/// NULL for an invalid sequence: a missing continuation byte, an overlong form, more than
/// 31 bits, and (strict) surrogates and code points past U+10FFFF.
static const char *decode_utf8(const char *s, const char *end, unsigned long *code, int strict) {
  static const unsigned long smallest[] = {0, 0, 0x80, 0x800, 0x10000, 0x200000, 0x4000000};
  unsigned int lead = (unsigned char)*s;
  unsigned long value;
  int length;
  if (lead < 0x80) {
    value = lead;
    length = 1;
  } else {
    // The count of leading one bits is the sequence's length (2 to 6); a lone 10xxxxxx is
    // a continuation byte, not a lead.
    length = 0;
    while (length < 7 && (lead & (0x80u >> length))) length++;
    if (length < 2 || length > 6) return NULL;
    value = lead & (0x7Fu >> length);
    for (int i = 1; i < length; i++) {
      if (!is_continuation(s + i, end)) return NULL;
      value = (value << 6) | ((unsigned char)s[i] & 0x3F);
    }
    if (value > MAX_UTF || value < smallest[length]) return NULL;
  }
  if (strict && (value > MAX_UNICODE || (value >= 0xD800 && value <= 0xDFFF))) return NULL;
  *code = value;
  return s + length;
}

static int codes_next(lua_State *L, int strict) {
  size_t length;
  const char *s = luaL_checklstring(L, 1, &length);
  const char *end = s + length;
  lua_Unsigned n = (lua_Unsigned)lua_tointeger(L, 2);
  while (n < length && is_continuation(s + n, end)) n++; // past the current sequence
  if (n >= length) return 0;
  unsigned long code;
  const char *next = decode_utf8(s + n, end, &code, strict);
  if (next == NULL || is_continuation(next, end)) return luaL_error(L, "invalid UTF-8 code");
  lua_pushinteger(L, (lua_Integer)n + 1);
  lua_pushinteger(L, (lua_Integer)code);
  return 2;
}

static int codes_next_strict(lua_State *L) { return codes_next(L, 1); }
static int codes_next_lax(lua_State *L) { return codes_next(L, 0); }

static int codes(lua_State *L) {
  int lax = lua_toboolean(L, 2);
  size_t length;
  const char *s = luaL_checklstring(L, 1, &length);
  luaL_argcheck(L, !is_continuation(s, s + length), 1, "invalid UTF-8 code");
  lua_pushcfunction(L, lax ? codes_next_lax : codes_next_strict);
  lua_pushvalue(L, 1);
  lua_pushinteger(L, 0);
  return 3;
}

// MARK: - load

/// Stack slot that anchors the piece a reader function returned.
enum { PIECE_SLOT = 5 };

/// Lua's load (binary chunks are refused: chunk_load.c); without an environment argument the
/// chunk gets upvalue 1 when it is set (a sandbox sets it to the environment of its code),
/// else the globals.
static int load(lua_State *L) {
  size_t length;
  const char *s = lua_tolstring(L, 1, &length);
  const char *mode = luaL_optstring(L, 3, "bt");
  int environment = !lua_isnone(L, 4) ? 4 : 0;
  int status;
  if (s != NULL) {
    const char *name = luaL_optstring(L, 2, s);
    status = waymark_load(L, s, length, name, mode);
  } else {
    const char *name = luaL_optstring(L, 2, "=(load)");
    luaL_checktype(L, 1, LUA_TFUNCTION);
    lua_settop(L, PIECE_SLOT);
    status = waymark_load_from_function(L, 1, PIECE_SLOT, name, mode);
  }
  if (status != LUA_OK) {
    luaL_pushfail(L);
    lua_insert(L, -2);
    return 2;
  }
  if (environment != 0) {
    lua_pushvalue(L, environment);
  } else if (lua_type(L, lua_upvalueindex(1)) != LUA_TNIL) {
    lua_pushvalue(L, lua_upvalueindex(1));
  } else {
    return 1;
  }
  if (!lua_setupvalue(L, -2, 1)) lua_pop(L, 1);
  return 1;
}

// MARK: - collectgarbage

/// What one basic step of the collector counts against an instruction budget.
enum { STEPS_PER_COLLECTOR_STEP = 1024 };
/// The largest step (in KB of allocation) handed to the collector in one call: a larger one
/// is given in pieces of this size, with the budget checked between them.
enum { STEP_PIECE = 64 };

/// collectgarbage with Lua's arguments, results and messages, for the options a sandbox
/// allows: "collect" and "step" work in bounded steps, checking the budget between them;
/// "count", "isrunning", "stop", "restart", "incremental", "setpause" and "setstepmul" are
/// Lua's (they only change when the plugin's own collector runs: the memory cap and the
/// budget hold whatever they say, and an allocation past the cap still collects first);
/// "generational" is refused.
static int collectgarbage(lua_State *L) {
  static const char *const options[] = {"stop",       "restart",   "collect",      "count",
                                        "step",       "setpause",  "setstepmul",   "isrunning",
                                        "generational", "incremental", NULL};
  int option = luaL_checkoption(L, 1, "collect", options);
  const char *name = options[option];
  if (strcmp(name, "collect") == 0) {
    // The cycle under way, then a whole one, as a full collection does.
    for (int ended = 0; ended < 2;) {
      waymark_check_budget(L, STEPS_PER_COLLECTOR_STEP);
      ended += lua_gc(L, LUA_GCSTEP, 0);
    }
    lua_pushinteger(L, 0);
    return 1;
  }
  if (strcmp(name, "count") == 0) {
    int kilobytes = lua_gc(L, LUA_GCCOUNT), bytes = lua_gc(L, LUA_GCCOUNTB);
    lua_pushnumber(L, (lua_Number)kilobytes + (lua_Number)bytes / 1024);
    return 1;
  }
  if (strcmp(name, "step") == 0) {
    int left = (int)luaL_optinteger(L, 2, 0); // Lua's own conversion
    int ended;
    do { // whether a cycle ended, as in Lua, for a step of `left` KB
      int piece = left > STEP_PIECE ? STEP_PIECE : left;
      left -= piece;
      waymark_check_budget(L, STEPS_PER_COLLECTOR_STEP * (piece > 8 ? piece / 8 : 1));
      ended = lua_gc(L, LUA_GCSTEP, piece);
    } while (!ended && left > 0);
    lua_pushboolean(L, ended);
    return 1;
  }
  if (strcmp(name, "isrunning") == 0) {
    lua_pushboolean(L, lua_gc(L, LUA_GCISRUNNING));
    return 1;
  }
  if (strcmp(name, "incremental") == 0) {
    int pause = (int)luaL_optinteger(L, 2, 0), stepmul = (int)luaL_optinteger(L, 3, 0);
    int stepsize = (int)luaL_optinteger(L, 4, 0);
    int previous = lua_gc(L, LUA_GCINC, pause, stepmul, stepsize);
    lua_pushstring(L, previous == LUA_GCGEN ? "generational" : "incremental");
    return 1;
  }
  if (strcmp(name, "setpause") == 0 || strcmp(name, "setstepmul") == 0) {
    int value = (int)luaL_optinteger(L, 2, 0);
    lua_pushinteger(L, lua_gc(L, strcmp(name, "setpause") == 0 ? LUA_GCSETPAUSE : LUA_GCSETSTEPMUL, value));
    return 1;
  }
  if (strcmp(name, "stop") == 0 || strcmp(name, "restart") == 0) {
    lua_pushinteger(L, lua_gc(L, strcmp(name, "stop") == 0 ? LUA_GCSTOP : LUA_GCRESTART));
    return 1;
  }
  // Generational mode carries a published bug of 5.4.4 (no proper target for the next cycle
  // after a full collection), so a plugin's collector stays incremental.
  return luaL_error(L, "collectgarbage('%s') is not allowed in a plugin", name);
}

// MARK: - setmetatable

/// Lua's setmetatable, but an object never gets a finalizer: a finalizer runs when the
/// collector or lua_close decides, outside any call and so outside its time budget. A
/// metatable holding `__gc` is accepted (class libraries copy every metamethod, `__gc`
/// among them) and set while its `__gc` is taken out, so Lua does not mark the object for
/// finalization; the field is put back, so the metatable reads as it was written.
static int setmetatable(lua_State *L) {
  int type = lua_type(L, 2);
  luaL_checktype(L, 1, LUA_TTABLE);
  luaL_argexpected(L, type == LUA_TNIL || type == LUA_TTABLE, 2, "nil or table");
  if (luaL_getmetafield(L, 1, "__metatable") != LUA_TNIL) {
    return luaL_error(L, "cannot change a protected metatable");
  }
  lua_settop(L, 2);
  if (type == LUA_TTABLE) {
    lua_pushliteral(L, "__gc");
    if (lua_rawget(L, 2) != LUA_TNIL) { // 3: the finalizer, set aside (raw: no metamethod runs)
      lua_pushliteral(L, "__gc");
      lua_pushnil(L);
      lua_rawset(L, 2);
      lua_pushvalue(L, 2);
      lua_setmetatable(L, 1);
      lua_pushliteral(L, "__gc");
      lua_pushvalue(L, 3);
      lua_rawset(L, 2);
      lua_settop(L, 1);
      return 1;
    }
    lua_pop(L, 1);
  }
  lua_setmetatable(L, 1);
  return 1;
}

// MARK: - xpcall

/// Makes the guard of a Lua message handler (its upvalue is waymark_is_stopped): a Lua
/// function that passes the stop's message through once the running call is stopped, and
/// else tail-calls the handler. The stop is raised from a hook, and Lua calls the handler
/// before it unwinds, with hooks off: a handler that loops would run forever. Being Lua and
/// tail-calling, the guard takes no C stack level, so a handler that raises is re-entered as
/// often as Lua re-enters an unguarded one before "error in error handling".
static const char guard_source[] = "local stopped = ...\n"
                                   "return function(handler)\n"
                                   "  return function(message)\n"
                                   "    if stopped() then return message end\n"
                                   "    return handler(message)\n"
                                   "  end\n"
                                   "end\n";

static int is_stopped(lua_State *L) {
  lua_pushboolean(L, waymark_is_stopped(L));
  return 1;
}

static int finish_xpcall(lua_State *L, int status, lua_KContext extra) {
  if (status != LUA_OK && status != LUA_YIELD) {
    lua_pushboolean(L, 0);
    lua_pushvalue(L, -2);
    return 2;
  }
  return lua_gettop(L) - (int)extra;
}

/// Lua 5.4's xpcall (same arguments, results and yields), with a Lua handler guarded (its
/// upvalue makes the guard). A C handler (debug.traceback, tostring...) is left as it is: on
/// the stop's message, a string, the sandbox's C functions finish, and a traceback it takes
/// keeps Lua's levels.
static int xpcall(lua_State *L) {
  int n = lua_gettop(L);
  luaL_checktype(L, 2, LUA_TFUNCTION);
  if (!lua_iscfunction(L, 2)) {
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushvalue(L, 2);
    lua_call(L, 1, 1);
    lua_replace(L, 2);
  }
  lua_pushboolean(L, 1);
  lua_pushvalue(L, 1);
  lua_rotate(L, 3, 2);
  int status = lua_pcallk(L, n - 2, LUA_MULTRET, 2, 2, finish_xpcall);
  return finish_xpcall(L, status, 2);
}

// MARK: - Installation

void waymark_install_string_functions(lua_State *L) {
  waymark_install_pattern_functions(L);
  lua_pushcfunction(L, rep);
  lua_setfield(L, -2, "rep");
  waymark_install_format(L);
}

void waymark_install_utf8_functions(lua_State *L) {
  lua_pushcfunction(L, codes);
  lua_setfield(L, -2, "codes");
}

void waymark_install_base_functions(lua_State *L) {
  lua_pushnil(L); // the default environment of load: the globals
  lua_pushcclosure(L, load, 1);
  lua_setfield(L, -2, "load");
  lua_pushcfunction(L, collectgarbage);
  lua_setfield(L, -2, "collectgarbage");
  lua_pushcfunction(L, setmetatable);
  lua_setfield(L, -2, "setmetatable");
  luaL_loadbuffer(L, guard_source, sizeof guard_source - 1, "=(xpcall)");
  lua_pushcfunction(L, is_stopped);
  lua_call(L, 1, 1);
  lua_pushcclosure(L, xpcall, 1);
  lua_setfield(L, -2, "xpcall");
}
