// A GeoJSON Point feature read in one C call, for `map:add_markers` of a FeatureCollection
// of tens of thousands of features: the same raw lookups the host's reader makes, without a
// wrapper's checks on each. Anything out of the ordinary is left to the host's reader, which
// names the mistake.
#include "CLuaShims.h"

/// Pushes t[key] (raw) for a literal key; answers its type.
static int field(lua_State *L, int t, const char *key) {
  lua_pushstring(L, key);
  return lua_rawget(L, t);
}

/// Whether the value on top is the string `expected`.
static int is_string(lua_State *L, const char *expected) {
  size_t length;
  if (lua_type(L, -1) != LUA_TSTRING) return 0;
  const char *text = lua_tolstring(L, -1, &length);
  return length == strlen(expected) && memcmp(text, expected, length) == 0;
}

/// The string at `index` into `*text`, or none for a nil; 0 for any other value.
static int optional_text(lua_State *L, int index, waymark_text *text) {
  switch (lua_type(L, index)) {
  case LUA_TNIL: text->bytes = NULL; text->count = 0; return 1;
  case LUA_TSTRING: text->bytes = lua_tolstring(L, index, &text->count); return 1;
  default: return 0;
  }
}

int waymark_point_feature(lua_State *L, int index, int title_key, int snippet_key, waymark_point *out) {
  int top = lua_gettop(L);
  index = lua_absindex(L, index);
  int ok = lua_type(L, index) == LUA_TTABLE && lua_checkstack(L, 8);
  ok = ok && field(L, index, "type") == LUA_TSTRING && is_string(L, "Feature");
  ok = ok && field(L, index, "geometry") == LUA_TTABLE;
  int geometry = lua_gettop(L);
  ok = ok && field(L, geometry, "type") == LUA_TSTRING && is_string(L, "Point");
  ok = ok && field(L, geometry, "coordinates") == LUA_TTABLE;
  int coordinates = lua_gettop(L);
  ok = ok && lua_rawgeti(L, coordinates, 1) == LUA_TNUMBER && lua_rawgeti(L, coordinates, 2) == LUA_TNUMBER;
  if (ok) {
    out->longitude = lua_tonumber(L, -2);
    out->latitude = lua_tonumber(L, -1);
  }
  ok = ok && (field(L, index, "id"), optional_text(L, -1, &out->id));
  int properties_type = ok ? field(L, index, "properties") : LUA_TNONE;
  int properties = lua_gettop(L);
  ok = ok && (properties_type == LUA_TNIL || properties_type == LUA_TTABLE);
  out->has_properties = properties_type == LUA_TTABLE;
  out->title.bytes = out->snippet.bytes = NULL;
  out->title.count = out->snippet.count = 0;
  if (ok && out->has_properties) {
    lua_pushvalue(L, title_key);
    lua_rawget(L, properties);
    ok = optional_text(L, -1, &out->title);
    lua_pushvalue(L, snippet_key);
    lua_rawget(L, properties);
    ok = ok && optional_text(L, -1, &out->snippet);
  }
  // The strings stay alive in the feature, which the caller holds; the properties stay on
  // top for the caller to copy.
  if (ok) {
    lua_pushvalue(L, properties);
    lua_replace(L, top + 1);
    lua_settop(L, top + 1);
  } else {
    lua_settop(L, top);
  }
  return ok;
}
