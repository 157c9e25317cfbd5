// string.format without memory addresses (issue 30): `%s` of a table, function, coroutine
// or userdata without __tostring shows what the sandbox's tostring shows (the renderer,
// upvalue 2, set by the sandbox; until then Lua's own text), and `%p` of any object shows
// a number the state gives each object at its first `%p`, 0x1, 0x2, ... in order, so a
// trace is the same on every run. Everything else is Lua 5.4's str_format itself, called
// from this C function's frame: its results, and its errors naming 'format' and the
// caller's line, are Lua's.
#include <string.h>

#include "internal.h"

enum { ORIGINAL = 1, RENDERER = 2, NUMBERS = 3, COUNT = 4 };
/// Lua's longest format item (MAX_FORMAT - 10 in lstrlib.c): a longer one is its error.
enum { LONGEST_ITEM = 22 };

/// Whether the item `spec` (after '%', up to its conversion letter at `length`) is one Lua
/// accepts for `%p`: '-' flags, at most two digits of width, no precision.
static int valid_pointer_item(const char *spec, size_t length) {
  size_t i = strspn(spec, "-");
  if (i < length && spec[i] == '0') return 0;
  for (int digits = 0; digits < 2 && i < length && spec[i] >= '0' && spec[i] <= '9'; digits++) i++;
  return i == length;
}

/// Replaces argument `arg` with its number ("0x1", ...) in the state's table of objects.
static void number_object(lua_State *L, int arg) {
  lua_pushvalue(L, arg);
  if (lua_rawget(L, lua_upvalueindex(NUMBERS)) != LUA_TSTRING) {
    lua_pop(L, 1);
    lua_Integer n = lua_tointeger(L, lua_upvalueindex(COUNT)) + 1;
    lua_pushinteger(L, n);
    lua_replace(L, lua_upvalueindex(COUNT));
    lua_pushfstring(L, "0x%I", n);
    lua_pushvalue(L, arg);
    lua_pushvalue(L, -2);
    lua_rawset(L, lua_upvalueindex(NUMBERS));
  }
  lua_replace(L, arg);
}

/// Replaces argument `arg`, an object without __tostring, with the renderer's text of it.
static void render_object(lua_State *L, int arg) {
  if (lua_type(L, lua_upvalueindex(RENDERER)) != LUA_TFUNCTION) return;
  if (luaL_getmetafield(L, arg, "__tostring") != LUA_TNIL) {
    lua_pop(L, 1);
    return;
  }
  lua_pushvalue(L, lua_upvalueindex(RENDERER));
  lua_pushvalue(L, arg);
  lua_call(L, 1, 1);
  if (lua_type(L, -1) == LUA_TSTRING) lua_replace(L, arg);
  else lua_pop(L, 1);
}

static int is_object(lua_State *L, int arg) {
  int type = lua_type(L, arg);
  return type == LUA_TTABLE || type == LUA_TFUNCTION || type == LUA_TTHREAD || type == LUA_TUSERDATA ||
         type == LUA_TLIGHTUSERDATA;
}

static int format(lua_State *L) {
  lua_CFunction original = lua_tocfunction(L, lua_upvalueindex(ORIGINAL));
  size_t size;
  const char *text = lua_type(L, 1) == LUA_TSTRING ? lua_tolstring(L, 1, &size) : NULL;
  if (text == NULL) return original(L); // Lua's error for a format that is not a string
  int top = lua_gettop(L), arg = 1;
  char *rewritten = NULL; // a copy of the format with some "%p" made "%s"
  for (size_t i = 0; i < size; i++) { // as str_format walks it, and no further
    if (text[i] != '%') continue;
    if (++i < size && text[i] == '%') continue;
    if (++arg > top) break; // Lua's "no value"
    size_t length = strspn(text + i, "-+#0 123456789.");
    if (length + 1 >= LONGEST_ITEM || i + length >= size) break; // Lua's error
    char conversion = text[i + length];
    if (conversion == 's' && is_object(L, arg)) {
      render_object(L, arg);
    } else if (conversion == 'p' && lua_topointer(L, arg) != NULL && valid_pointer_item(text + i, length)) {
      number_object(L, arg);
      if (rewritten == NULL) {
        rewritten = lua_newuserdatauv(L, size + 1, 0);
        memcpy(rewritten, text, size + 1); // with the NUL Lua keeps after a string
        lua_replace(L, 1); // keeps the copy alive; the format is pushed back below
        text = rewritten;
      }
      rewritten[i + length] = 's';
    }
    i += length;
  }
  if (rewritten != NULL) {
    lua_pushlstring(L, rewritten, size);
    lua_replace(L, 1);
  }
  return original(L);
}

void waymark_install_format(lua_State *L) {
  lua_getfield(L, -1, "format");
  lua_pushnil(L); // the renderer, set by the sandbox
  lua_newtable(L);
  lua_newtable(L); // the numbers' keys are weak: an object collected is forgotten
  lua_pushliteral(L, "k");
  lua_setfield(L, -2, "__mode");
  lua_setmetatable(L, -2);
  lua_pushinteger(L, 0);
  lua_pushcclosure(L, format, 4);
  lua_setfield(L, -2, "format");
}
