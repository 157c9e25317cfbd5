// The field cache of object userdata: `__index` answers the fields named cacheable from a
// table kept in the object's user value, without calling Swift, as long as the object's
// change counter (an address the Swift object owns, bumped on every change) still holds
// the value it had when the cache was filled. A miss, any other key, and an object without
// a counter call the Swift `__index` directly (its errors keep the Lua caller's position).
// `__newindex` empties the cache before and after the Swift setter runs.
#include "CLuaShims.h"
#include "internal.h"

/// The value a cached nil is stored as (a table cannot hold nil).
static char cached_nil;

/// The object at 1 if it is an object userdata whose cache can be used, else NULL.
static object_slot *cache_of(lua_State *L) {
  // A full userdata of an object's size: lua_touserdata is NULL for anything but userdata,
  // and lua_rawlen is 0 for a light one.
  object_slot *slot = (object_slot *)lua_touserdata(L, 1);
  if (slot == NULL || lua_rawlen(L, 1) != sizeof *slot || slot->base.box == NULL || slot->counter == NULL) return NULL;
  return slot;
}

/// A shallow copy of the table at `i`, pushed. Stack: +1.
static void push_copy(lua_State *L, int i) {
  i = lua_absindex(L, i);
  lua_createtable(L, 0, 2);
  lua_pushnil(L);
  while (lua_next(L, i)) {
    lua_pushvalue(L, -2);
    lua_insert(L, -2);
    lua_rawset(L, -4);
  }
}

/// Whether the key at 2 names a field cached as a copy (upvalue 1: name -> true for copies,
/// false for values handed out as they are; absent: not cached). Stack: 0.
static int lookup_field(lua_State *L, int *copies) {
  if (lua_type(L, 2) != LUA_TSTRING) return 0;
  lua_pushvalue(L, 2);
  int type = lua_rawget(L, lua_upvalueindex(1));
  *copies = lua_toboolean(L, -1);
  lua_pop(L, 1);
  return type == LUA_TBOOLEAN;
}

static int cached_index(lua_State *L) {
  object_slot *slot = cache_of(L);
  uint64_t now = slot != NULL ? *slot->counter : 0;
  int copies = 0;
  if (slot != NULL && now == slot->seen && lua_getiuservalue(L, 1, 1) == LUA_TTABLE) { // the cache, at 3
    lua_pushvalue(L, 2);
    switch (lua_rawget(L, 3)) {
    case LUA_TNIL: break; // not cached (yet, or not a cached field)
    case LUA_TLIGHTUSERDATA:
      if (lua_touserdata(L, -1) == &cached_nil) lua_pushnil(L);
      return 1;
    case LUA_TTABLE:
      (void)lookup_field(L, &copies);
      if (copies) push_copy(L, -1);
      return 1;
    default: return 1;
    }
  }
  function_slot *fallback = (function_slot *)lua_touserdata(L, lua_upvalueindex(2));
  if (slot == NULL) return waymark_call_swift(L, fallback);
  lua_settop(L, 2);
  if (!lookup_field(L, &copies)) return waymark_call_swift(L, fallback);
  int n = waymark_call_swift(L, fallback); // u, key, value
  if (n != 1 || lua_gettop(L) != 3 || *slot->counter != now) return n; // the getter changed it: keep nothing
  if (now != slot->seen || lua_getiuservalue(L, 1, 1) != LUA_TTABLE) { // a new cache, at 4
    lua_settop(L, 3);
    lua_createtable(L, 0, 4);
    lua_pushvalue(L, -1);
    lua_setiuservalue(L, 1, 1);
    slot->seen = now;
  }
  lua_pushvalue(L, 2);
  if (lua_isnil(L, 3)) {
    lua_pushlightuserdata(L, &cached_nil);
  } else {
    lua_pushvalue(L, 3);
  }
  lua_rawset(L, 4);
  lua_settop(L, 3);
  if (copies && lua_istable(L, 3)) push_copy(L, 3); // the caller's copy, not the cached one
  return 1;
}

static int clearing_newindex(lua_State *L) {
  function_slot *setter = (function_slot *)lua_touserdata(L, lua_upvalueindex(1));
  object_slot *slot = cache_of(L);
  if (slot != NULL) {
    lua_pushnil(L);
    lua_setiuservalue(L, 1, 1);
  }
  int n = waymark_call_swift(L, setter);
  if (slot != NULL) {
    lua_pushnil(L);
    lua_setiuservalue(L, 1, 1);
  }
  return n;
}

/// The function_slot of the Swift function (trampoline closure) at `i`, pushed. Stack: +1.
static void push_function_slot(lua_State *L, int i) {
  if (lua_getupvalue(L, i, 1) == NULL) lua_pushnil(L);
}

void waymark_push_cached_index(lua_State *L) {
  push_function_slot(L, -1); // fields, fallback, slot
  lua_remove(L, -2);         // fields, slot
  lua_pushcclosure(L, cached_index, 2);
}

void waymark_push_cache_clearing_newindex(lua_State *L) {
  push_function_slot(L, -1);
  lua_remove(L, -2);
  lua_pushcclosure(L, clearing_newindex, 1);
}

void waymark_set_change_counter(lua_State *L, int i, const uint64_t *counter) {
  object_slot *slot = (object_slot *)lua_touserdata(L, i);
  if (slot == NULL || lua_type(L, i) != LUA_TUSERDATA || lua_rawlen(L, i) != sizeof *slot) return;
  i = lua_absindex(L, i);
  slot->counter = counter;
  slot->seen = counter != NULL ? *counter : 0;
  lua_pushnil(L);
  lua_setiuservalue(L, i, 1);
}
