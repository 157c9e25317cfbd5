// Plain data in a compact encoding, for a marker's `user_data` shared between Lua states:
// `map:add_markers` copies each feature's properties in one C call instead of building a
// Swift value tree, and another state that reads them decodes the bytes in one C call.
//
// The encoding: a value is a tag byte and its payload. 'z' nil (a function or thread the
// copy drops), 'f'/'t' false/true, 'i' an int64, 'n' a double, 's' a uint32 length and the
// bytes, 'T' a uint32 count of pairs and then each pair as a key ('i' or 's') and a value.
// Numbers are in the machine's byte order: the bytes never leave the process.
#include "CLuaShims.h"

#include <stdlib.h>

/// The value-and-byte budget of one copy, and the output.
typedef struct {
  waymark_plain_buffer *out;
  long long values, bytes;
} encoder;

static int reserve(waymark_plain_buffer *out, size_t extra) {
  if (out->count + extra <= out->capacity) return 1;
  size_t capacity = out->capacity ? out->capacity : 256;
  while (capacity < out->count + extra) capacity *= 2;
  unsigned char *grown = realloc(out->bytes, capacity);
  if (grown == NULL) return 0;
  out->bytes = grown;
  out->capacity = capacity;
  return 1;
}

static int put(encoder *e, const void *bytes, size_t count) {
  if (!reserve(e->out, count)) return 0;
  memcpy(e->out->bytes + e->out->count, bytes, count);
  e->out->count += count;
  return 1;
}

static int put_tag(encoder *e, unsigned char tag) { return put(e, &tag, 1); }

static int put_string(encoder *e, lua_State *L, int index) {
  size_t length;
  const char *text = lua_tolstring(L, index, &length);
  if (length > UINT32_MAX) return 0;
  uint32_t length32 = (uint32_t)length;
  return put_tag(e, 's') && put(e, &length32, 4) && put(e, text, length);
}

/// Takes one value of `extra` bytes, as the host's reader does: 0 once past a limit.
static int take(encoder *e, size_t extra) {
  e->values -= 1;
  e->bytes -= WAYMARK_PLAIN_VALUE_COST + (long long)extra;
  return e->values >= 0 && e->bytes >= 0;
}

static int encode(encoder *e, lua_State *L, int index, int depth);

static int encode_table(encoder *e, lua_State *L, int index, int depth) {
  if (depth >= WAYMARK_PLAIN_MAX_DEPTH || !lua_checkstack(L, 6) || !put_tag(e, 'T')) return 0;
  size_t count_at = e->out->count;
  uint32_t count = 0;
  if (!put(e, &count, 4)) return 0;
  lua_pushnil(L);
  while (lua_next(L, index)) {
    int key = lua_gettop(L) - 1, ok = 1;
    if (lua_type(L, key) == LUA_TSTRING) {
      ok = take(e, lua_rawlen(L, key)) && put_string(e, L, key);
    } else if (lua_isinteger(L, key)) {
      lua_Integer n = lua_tointeger(L, key);
      ok = put_tag(e, 'i') && put(e, &n, sizeof n);
    } else {
      lua_pop(L, 1);  // other keys are dropped
      continue;
    }
    if (!ok || !encode(e, L, lua_gettop(L), depth + 1)) return 0;  // the caller resets the stack
    lua_pop(L, 1);
    count++;
  }
  memcpy(e->out->bytes + count_at, &count, 4);
  return 1;
}

static int encode(encoder *e, lua_State *L, int index, int depth) {
  int type = lua_type(L, index);
  if (!take(e, type == LUA_TSTRING ? lua_rawlen(L, index) : 0)) return 0;
  switch (type) {
  case LUA_TBOOLEAN: return put_tag(e, lua_toboolean(L, index) ? 't' : 'f');
  case LUA_TNUMBER:
    if (lua_isinteger(L, index)) {
      lua_Integer n = lua_tointeger(L, index);
      return put_tag(e, 'i') && put(e, &n, sizeof n);
    } else {
      lua_Number x = lua_tonumber(L, index);
      return put_tag(e, 'n') && put(e, &x, sizeof x);
    }
  case LUA_TSTRING: return put_string(e, L, index);
  case LUA_TTABLE: return encode_table(e, L, index, depth);
  case LUA_TUSERDATA: return 0;  // a marker or an overlay: the host's reader knows them
  default: return put_tag(e, 'z');
  }
}

long long waymark_plain_encode(lua_State *L, int index, waymark_plain_buffer *out, long long max_values,
                               long long max_bytes) {
  encoder e = {out, max_values, max_bytes};
  out->count = 0;
  int top = lua_gettop(L);
  int ok = encode(&e, L, lua_absindex(L, index), 0);
  lua_settop(L, top);
  return ok ? max_bytes - e.bytes : -1;
}

void waymark_plain_release(waymark_plain_buffer *buffer) {
  free(buffer->bytes);
  *buffer = (waymark_plain_buffer){0};
}

/// Reads `count` bytes at `*at`, or answers 0 past the end.
static int get(const unsigned char **at, const unsigned char *end, void *into, size_t count) {
  if ((size_t)(end - *at) < count) return 0;
  memcpy(into, *at, count);
  *at += count;
  return 1;
}

/// Pushes the value at `*at` (nothing for 'z'); answers 1 when it pushed one, 0 for a nil,
/// -1 for bytes that are not an encoding.
static int decode(lua_State *L, const unsigned char **at, const unsigned char *end) {
  unsigned char tag;
  if (!get(at, end, &tag, 1)) return -1;
  switch (tag) {
  case 'z': return 0;
  case 'f':
  case 't': lua_pushboolean(L, tag == 't'); return 1;
  case 'i': {
    lua_Integer n;
    if (!get(at, end, &n, sizeof n)) return -1;
    lua_pushinteger(L, n);
    return 1;
  }
  case 'n': {
    lua_Number x;
    if (!get(at, end, &x, sizeof x)) return -1;
    lua_pushnumber(L, x);
    return 1;
  }
  case 's': {
    uint32_t length;
    if (!get(at, end, &length, 4) || (size_t)(end - *at) < length) return -1;
    lua_pushlstring(L, (const char *)*at, length);
    *at += length;
    return 1;
  }
  case 'T': {
    uint32_t count;
    if (!get(at, end, &count, 4) || !lua_checkstack(L, 4)) return -1;
    lua_createtable(L, 0, (int)(count > 64 ? 64 : count));
    for (uint32_t i = 0; i < count; i++) {
      if (decode(L, at, end) != 1) return -1;  // a key is never nil
      int pushed = decode(L, at, end);
      if (pushed < 0) return -1;
      if (pushed == 0) {
        lua_pop(L, 1);
      } else {
        lua_rawset(L, -3);
      }
    }
    return 1;
  }
  default: return -1;
  }
}

int waymark_plain_push(lua_State *L, const unsigned char *bytes, size_t count) {
  int top = lua_gettop(L);
  const unsigned char *at = bytes;
  int pushed = decode(L, &at, bytes + count);
  if (pushed < 0 || at != bytes + count) {
    lua_settop(L, top);
    return 0;
  }
  if (pushed == 0) lua_pushnil(L);
  return 1;
}
