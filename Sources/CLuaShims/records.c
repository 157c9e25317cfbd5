// Building many small tables of one shape in one C call each, for answers of tens of
// thousands of records (`clusters_at` at a high zoom), and reading the small tables a loop
// hands in (a marker's options, for `map:add_marker` called 100,000 times): the
// same lua_* calls Swift would make through LuaStack, without a wrapper's checks and index
// conversions on every one.
#include "CLuaShims.h"

int waymark_push_list_from(lua_State *L, int store, const lua_Integer *keys, int count) {
  lua_createtable(L, count, 0);
  int missing = 0;
  for (int i = 0; i < count; i++) {
    if (store == 0 || lua_rawgeti(L, store, keys[i]) != LUA_TTABLE) {
      if (store != 0) lua_pop(L, 1);
      missing++;
      continue;
    }
    lua_rawseti(L, -2, i + 1);
  }
  return missing;
}

/// Whether the table at `t` holds the number `value` under the string at `key`. Stack: 0.
static int holds_number(lua_State *L, int t, int key, double value) {
  lua_pushvalue(L, key);
  int holds = lua_rawget(L, t) == LUA_TNUMBER && lua_tonumber(L, -1) == value;
  lua_pop(L, 1);
  return holds;
}

void waymark_wrap_cluster(lua_State *L, int keys, lua_Integer count, double lat, double lng) {
  int position = keys, count_key = keys + 1, items = keys + 2, lat_key = keys + 3, lng_key = keys + 4;
  int list = lua_gettop(L);
  lua_createtable(L, 0, 3);
  int cluster = list + 1;
  lua_pushvalue(L, count_key);
  lua_pushinteger(L, count);
  lua_rawset(L, cluster);
  // The first item's own position table when it says where the cluster stands (R60).
  lua_pushvalue(L, position);
  int shared = 0;
  if (lua_rawgeti(L, list, 1) == LUA_TTABLE) {
    lua_pushvalue(L, position);
    shared = lua_rawget(L, -2) == LUA_TTABLE && holds_number(L, lua_gettop(L), lat_key, lat) &&
             holds_number(L, lua_gettop(L), lng_key, lng);
    lua_remove(L, -2); // the item
    if (!shared) lua_pop(L, 1);
  } else {
    lua_pop(L, 1);
  }
  if (!shared) {
    lua_createtable(L, 0, 2);
    lua_pushvalue(L, lat_key);
    lua_pushnumber(L, lat);
    lua_rawset(L, -3);
    lua_pushvalue(L, lng_key);
    lua_pushnumber(L, lng);
    lua_rawset(L, -3);
  }
  lua_rawset(L, cluster); // cluster.position
  lua_pushvalue(L, items);
  lua_pushvalue(L, list);
  lua_rawset(L, cluster); // cluster.items
  lua_replace(L, list);
}

long long waymark_gather_fields(lua_State *L, int t, int slots, int base, int count) {
  unsigned long long present = 0;
  lua_pushnil(L);
  while (lua_next(L, t)) {
    switch (lua_type(L, -2)) {
    case LUA_TSTRING:
      lua_pushvalue(L, -2);
      if (lua_rawget(L, slots) != LUA_TNUMBER) {
        lua_pop(L, 3);
        return -1;
      }
      lua_Integer slot = lua_tointeger(L, -1);
      lua_pop(L, 1);
      if (slot < 0 || slot >= count) {
        lua_pop(L, 2);
        return -1;
      }
      present |= 1ULL << slot;
      lua_copy(L, -1, base + (int)slot);
      break;
    case LUA_TNUMBER:
    case LUA_TBOOLEAN: lua_pop(L, 2); return -1;
    default: break;
    }
    lua_pop(L, 1);
  }
  return (long long)present;
}

int waymark_is_list(lua_State *L, int t, lua_Integer n) {
  lua_pushnil(L);
  while (lua_next(L, t)) {
    lua_pop(L, 1);
    switch (lua_type(L, -1)) {
    case LUA_TNUMBER:
      if (lua_isinteger(L, -1)) {
        lua_Integer k = lua_tointeger(L, -1);
        if (k >= 1 && k <= n) break;
      }
      lua_pop(L, 1);
      return 0;
    case LUA_TSTRING:
    case LUA_TBOOLEAN: lua_pop(L, 1); return 0;
    default: break;
    }
  }
  return 1;
}
