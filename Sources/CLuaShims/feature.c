// A GeoJSON Point feature read in one C call, for `map:add_markers` of a FeatureCollection
// of tens of thousands of features: the same raw lookups the host's reader makes, without a
// wrapper's checks on each. Anything out of the ordinary is left to the host's reader, which
// names the mistake. The keys are pushed once a call (waymark_push_feature_keys): a string
// pushed per lookup is hashed and interned per lookup.
#include "CLuaShims.h"

/// The strings waymark_push_feature_keys pushes, after the title and snippet keys.
static const char *const fixed_keys[] = {"type", "Feature", "geometry", "Point", "coordinates", "id", "properties"};

/// Where each key is, counted from the title key.
enum { TITLE, SNIPPET, TYPE, FEATURE, GEOMETRY, POINT, COORDINATES, ID, PROPERTIES };

void waymark_push_feature_keys(lua_State *L) {
  for (size_t i = 0; i < sizeof fixed_keys / sizeof fixed_keys[0]; i++) lua_pushstring(L, fixed_keys[i]);
}

/// Pushes t[key] (raw), the key at `keys + which`; answers its type.
static int field(lua_State *L, int t, int keys, int which) {
  lua_pushvalue(L, keys + which);
  return lua_rawget(L, t);
}

/// The string at `index` into `*text`, or none for a nil; 0 for any other value.
static int optional_text(lua_State *L, int index, waymark_text *text) {
  switch (lua_type(L, index)) {
  case LUA_TNIL: text->bytes = NULL; text->count = 0; return 1;
  case LUA_TSTRING: text->bytes = lua_tolstring(L, index, &text->count); return 1;
  default: return 0;
  }
}

int waymark_point_feature(lua_State *L, int index, int keys, waymark_point *out) {
  int top = lua_gettop(L);
  index = lua_absindex(L, index);
  int ok = lua_type(L, index) == LUA_TTABLE && lua_checkstack(L, 8);
  // A string equal to a key string is that very string (short strings are interned).
  ok = ok && field(L, index, keys, TYPE) == LUA_TSTRING && lua_rawequal(L, -1, keys + FEATURE);
  ok = ok && field(L, index, keys, GEOMETRY) == LUA_TTABLE;
  int geometry = lua_gettop(L);
  ok = ok && field(L, geometry, keys, TYPE) == LUA_TSTRING && lua_rawequal(L, -1, keys + POINT);
  ok = ok && field(L, geometry, keys, COORDINATES) == LUA_TTABLE;
  int coordinates = lua_gettop(L);
  ok = ok && lua_rawgeti(L, coordinates, 1) == LUA_TNUMBER && lua_rawgeti(L, coordinates, 2) == LUA_TNUMBER;
  if (ok) {
    out->longitude = lua_tonumber(L, -2);
    out->latitude = lua_tonumber(L, -1);
  }
  ok = ok && (field(L, index, keys, ID), optional_text(L, -1, &out->id));
  int properties_type = ok ? field(L, index, keys, PROPERTIES) : LUA_TNONE;
  int properties = lua_gettop(L);
  ok = ok && (properties_type == LUA_TNIL || properties_type == LUA_TTABLE);
  out->has_properties = properties_type == LUA_TTABLE;
  out->title.bytes = out->snippet.bytes = NULL;
  out->title.count = out->snippet.count = 0;
  if (ok && out->has_properties) {
    field(L, properties, keys, TITLE);
    ok = optional_text(L, -1, &out->title);
    field(L, properties, keys, SNIPPET);
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
