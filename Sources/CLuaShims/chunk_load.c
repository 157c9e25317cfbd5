// Loading chunks: the parser runs inside one C call, so it is handed the chunk in slices and
// the time budget is checked between them; a text chunk it compiled is then checked for the
// miscompilations of Lua 5.4.4 (chunk_repair.c). Every chunk a state loads comes through
// here: LuaKit's loads and the `load` of plugins and scripts. Binary chunks are refused, even
// where the mode allows them: Lua does not verify them, and they escape the repair.
#include <string.h>

#include "internal.h"

/// Bytes the parser gets per read: about a millisecond of parsing.
enum { SLICE = 64 << 10 };

typedef struct {
  const char *piece;  // what is left of the current piece
  size_t left;
  int function;       // stack index of a reader function, 0 for a string chunk
  int anchor;         // where the function's current piece is kept alive
  int first_byte;     // the chunk's first byte, -1 before it is read
  int refuses_binary; // the mode allows binary chunks: this refuses them instead of Lua
} slicer;

static const char *next_slice(lua_State *L, void *data, size_t *size) {
  slicer *r = (slicer *)data;
  waymark_check_budget(L, SLICE); // a byte parsed counts as an instruction
  if (r->left == 0 && r->function != 0) {
    luaL_checkstack(L, 2, "too many nested functions");
    lua_pushvalue(L, r->function);
    lua_call(L, 0, 1);
    if (lua_isnil(L, -1)) {
      lua_pop(L, 1);
      *size = 0;
      return NULL;
    }
    if (!lua_isstring(L, -1)) luaL_error(L, "reader function must return a string");
    lua_replace(L, r->anchor);
    r->piece = lua_tolstring(L, r->anchor, &r->left);
  }
  if (r->left == 0) {
    *size = 0;
    return NULL;
  }
  size_t n = r->left < SLICE ? r->left : SLICE;
  const char *slice = r->piece;
  if (r->first_byte < 0) {
    r->first_byte = (unsigned char)slice[0];
    if (r->first_byte == LUA_SIGNATURE[0] && r->refuses_binary) { // the parser sees an end
      r->left = 0;
      r->function = 0;
      *size = 0;
      return NULL;
    }
  }
  r->piece += n;
  r->left -= n;
  *size = n;
  return slice;
}

static int load_sliced(lua_State *L, slicer *r, const char *name, const char *mode) {
  r->refuses_binary = mode == NULL || strchr(mode, 'b') != NULL; // else Lua refuses, in its words
  int status = lua_load(L, next_slice, r, name, mode);
  if (r->first_byte == LUA_SIGNATURE[0] && r->refuses_binary) {
    lua_pop(L, 1);
    lua_pushliteral(L, "attempt to load a binary chunk (only text chunks are allowed)");
    return LUA_ERRSYNTAX;
  }
  if (status != LUA_OK) return status;
  return waymark_repair_chunk(L, name);
}

int waymark_load(lua_State *L, const char *chunk, size_t size, const char *name, const char *mode) {
  slicer r = {chunk, size, 0, 0, -1, 0};
  return load_sliced(L, &r, name, mode);
}

int waymark_load_from_function(lua_State *L, int function, int anchor, const char *name, const char *mode) {
  slicer r = {NULL, 0, lua_absindex(L, function), lua_absindex(L, anchor), -1, 0};
  return load_sliced(L, &r, name, mode);
}
