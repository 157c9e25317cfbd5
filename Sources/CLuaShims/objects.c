// Swift objects as Lua sees them: a full userdata holding a retained box, its metatable
// (`__gc` releases the box, `__tostring`, a protected `__metatable`), and the field cache of
// object userdata: `__index` answers the fields named cacheable from the
// object's own user values, one per field, without calling Swift's `__index`, as long as the
// object's version (a number the type's C reader function gives, which changes on every
// change of the object) is the one it had when they were filled. A miss and any other key call the Swift
// `__index` directly (its errors keep the Lua caller's position).
// `__newindex` empties the cache before and after the Swift setter runs.
//
// A key is recognized by identity: field names are short strings, which Lua interns, so
// the key "title" of any script is the very string the type's fields were named with.
#include "CLuaShims.h"
#include "internal.h"

/// The most fields a type caches (a bit each in object_slot.filled).
enum { MAX_CACHED = 16 };

/// The cached fields of one object type: the upvalue of its `__index`, and found by the
/// objects of the type through their metatable (fields_key), which tells how many user
/// values they get. Its own user value keeps the name strings alive.
typedef struct field_cache {
  int count;
  const void *names[MAX_CACHED]; ///< the interned strings, as lua_topointer gives them
  uint32_t copies;               ///< fields whose table answer is handed out as a copy
  function_slot *fallback;       ///< the Swift `__index`
  waymark_version_function version; ///< reads an object's version from its box
} field_cache;

/// The metatable key of a type's field_cache.
static char fields_key;

const field_cache *waymark_cached_fields_of_metatable(lua_State *L) {
  const field_cache *fields = NULL;
  if (lua_rawgetp(L, -1, &fields_key) == LUA_TUSERDATA) fields = (const field_cache *)lua_touserdata(L, -1);
  lua_pop(L, 1);
  return fields;
}

int waymark_cached_field_count(const field_cache *fields) { return fields != NULL ? fields->count : 0; }

/// The object at 1 if it is an object userdata whose cache can be used, else NULL.
static object_slot *cache_of(lua_State *L) {
  // A full userdata of an object's size: lua_touserdata is NULL for anything but userdata,
  // and lua_rawlen is 0 for a light one.
  object_slot *slot = (object_slot *)lua_touserdata(L, 1);
  if (slot == NULL || lua_rawlen(L, 1) != sizeof *slot || slot->base.box == NULL || slot->fields == NULL)
    return NULL;
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

/// The index of the key at 2 among the cached fields, or -1.
static inline int field_index(lua_State *L, const field_cache *fields) {
  const void *key = lua_topointer(L, 2); // a string's identity; NULL for numbers and booleans
  for (int i = 0; i < fields->count; i++) {
    if (fields->names[i] == key) return i;
  }
  return -1;
}

/// The Swift `__index` of the closure running now.
static function_slot *fallback(lua_State *L) {
  return ((const field_cache *)lua_touserdata(L, lua_upvalueindex(1)))->fallback;
}

static int cached_index(lua_State *L) {
  object_slot *slot = cache_of(L);
  const field_cache *fields = slot != NULL ? slot->fields : NULL; // cache_of: not NULL then
  int field = slot != NULL ? field_index(L, fields) : -1;
  if (field < 0) return waymark_call_swift(L, fallback(L));
  uint64_t now = fields->version((waymark_object_box *)slot->base.box);
  uint32_t bit = 1u << field;
  if (now == slot->seen && (slot->filled & bit) != 0) {
    int type = lua_getiuservalue(L, 1, field + 1);
    if (type == LUA_TTABLE && (fields->copies & bit) != 0) push_copy(L, -1);
    return 1;
  }
  lua_settop(L, 2);
  int n = waymark_call_swift(L, fallback(L)); // u, key, value
  if (n != 1 || lua_gettop(L) != 3 || fields->version((waymark_object_box *)slot->base.box) != now)
    return n; // the getter changed it: keep nothing
  if (now != slot->seen) {
    slot->seen = now;
    slot->filled = 0;
  }
  lua_pushvalue(L, 3);
  // An object pushed before its type cached fields has no user value for them.
  if (lua_setiuservalue(L, 1, field + 1)) slot->filled |= bit;
  if ((fields->copies & bit) != 0 && lua_istable(L, 3)) push_copy(L, 3); // the caller's copy, not the cached one
  return 1;
}

static int clearing_newindex(lua_State *L) {
  function_slot *setter = (function_slot *)lua_touserdata(L, lua_upvalueindex(1));
  object_slot *slot = cache_of(L);
  if (slot != NULL) slot->filled = 0;
  int n = waymark_call_swift(L, setter);
  if (slot != NULL) slot->filled = 0;
  return n;
}

/// Pushes upvalue 1 of the Swift function (trampoline closure) at `i`, its function_slot
/// userdata (nil if none). Stack: +1.
static void push_function_slot(lua_State *L, int i) {
  if (lua_getupvalue(L, i, 1) == NULL) lua_pushnil(L);
}

void waymark_push_cached_index(lua_State *L, int metatable, waymark_version_function version) {
  metatable = lua_absindex(L, metatable);
  int names = lua_absindex(L, -2); // then the fallback
  field_cache *fields = (field_cache *)lua_newuserdatauv(L, sizeof *fields, 3);
  int at = lua_gettop(L);
  fields->count = 0;
  fields->copies = 0;
  fields->version = version;
  push_function_slot(L, names + 1);
  fields->fallback = (function_slot *)lua_touserdata(L, -1);
  lua_setiuservalue(L, at, 2); // keeps the fallback alive
  lua_rawgetp(L, metatable, &fields_key);
  lua_setiuservalue(L, at, 3); // keeps the fields objects pushed before point to alive
  lua_pushnil(L);
  while (lua_next(L, names)) { // name, copies
    if (lua_type(L, -2) == LUA_TSTRING && lua_rawlen(L, -2) <= 40 && fields->count < MAX_CACHED) { // short: interned
      fields->names[fields->count] = lua_topointer(L, -2);
      if (lua_toboolean(L, -1)) fields->copies |= 1u << fields->count;
      fields->count++;
    }
    lua_pop(L, 1);
  }
  lua_pushvalue(L, names);
  lua_setiuservalue(L, at, 1); // keeps the names alive, so no other string takes their addresses
  lua_pushvalue(L, at);
  lua_rawsetp(L, metatable, &fields_key);
  lua_pushcclosure(L, cached_index, 1);
  lua_replace(L, names);
  lua_pop(L, 1);
}

void waymark_push_cache_clearing_newindex(lua_State *L) {
  push_function_slot(L, -1); // setter, its slot
  lua_remove(L, -2);
  lua_pushcclosure(L, clearing_newindex, 1);
}

static int methods_index(lua_State *L) {
  lua_settop(L, 2);
  // The holder's first value, when set, is the one object the table answers for (false: none).
  int only = lua_rawgeti(L, lua_upvalueindex(2), 1);
  if (only == LUA_TNIL || lua_rawequal(L, 1, 3)) {
    lua_pushvalue(L, 2);
    if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNIL) return 1;
  }
  lua_settop(L, 2);
  return waymark_call_swift(L, (function_slot *)lua_touserdata(L, lua_upvalueindex(3)));
}

void waymark_push_methods_index(lua_State *L) {
  push_function_slot(L, -1); // methods, holder, the Swift function, its slot
  lua_remove(L, -2);
  lua_pushcclosure(L, methods_index, 3);
}

// MARK: - Swift objects

static int object_tostring(lua_State *L) {
  if (luaL_getmetafield(L, 1, "__name") != LUA_TSTRING) lua_pushliteral(L, "userdata");
  lua_pushfstring(L, "%s: %p", lua_tostring(L, -1), lua_topointer(L, 1));
  return 1;
}

int waymark_object_metatable(lua_State *L, const char *tname) {
  if (!luaL_newmetatable(L, tname)) return 0; // sets __name
  lua_pushcfunction(L, waymark_release_slot);
  lua_setfield(L, -2, "__gc");
  lua_pushcfunction(L, object_tostring);
  lua_setfield(L, -2, "__tostring");
  lua_pushboolean(L, 0);
  lua_setfield(L, -2, "__metatable"); // getmetatable() from scripts sees false
  return 1;
}

void waymark_push_object(lua_State *L, void *box, waymark_release_function release,
                         const char *tname) {
  if (luaL_getmetatable(L, tname) != LUA_TTABLE) {
    lua_pop(L, 1);
    waymark_object_metatable(L, tname);
  }
  const struct field_cache *fields = waymark_cached_fields_of_metatable(L);
  // A user value per cached field, then the host's value.
  object_slot *slot = (object_slot *)lua_newuserdatauv(L, sizeof *slot, waymark_cached_field_count(fields) + 1);
  slot->base.box = box; // owned from here: released by __gc, or right now below
  slot->base.release = release;
  slot->fields = fields; // alive as long as the metatable, which the userdata keeps
  slot->seen = 0;
  slot->filled = 0;
  lua_insert(L, -2);
  lua_setmetatable(L, -2);
}

void *waymark_test_object(lua_State *L, int i, const char *tname) {
  object_slot *slot = (object_slot *)luaL_testudata(L, i, tname);
  return slot ? slot->base.box : NULL;
}

/// The index of the host's user value of the object userdata at `i` (after its cached
/// fields' values), or 0 when `i` holds no object userdata.
static int host_value_index(lua_State *L, int i) {
  object_slot *slot = (object_slot *)lua_touserdata(L, i);
  if (slot == NULL || lua_rawlen(L, i) != sizeof *slot || slot->base.box == NULL) return 0;
  return waymark_cached_field_count(slot->fields) + 1;
}

int waymark_push_host_value(lua_State *L, int i) {
  int n = host_value_index(L, i);
  if (n == 0) {
    lua_pushnil(L);
    return 0;
  }
  lua_getiuservalue(L, i, n);
  return 1;
}

int waymark_set_host_value(lua_State *L, int i) {
  i = lua_absindex(L, i);
  int n = host_value_index(L, i);
  if (n == 0) {
    lua_pop(L, 1);
    return 0;
  }
  return lua_setiuservalue(L, i, n);
}
