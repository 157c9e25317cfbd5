// State lifetime, library opening, fixed-arity variadics and protected table
// access.
#include <stdlib.h>
#include <string.h>

#include "CLuaShims.h"
#include "internal.h"
#include "string_seed.h"

const char *waymark_lua_release(void) { return LUA_RELEASE; }

void waymark_gc_collect(lua_State *L) { (void)lua_gc(L, LUA_GCCOLLECT); }

int waymark_gc_pause(lua_State *L) {
  if (!lua_gc(L, LUA_GCISRUNNING)) return 0;
  (void)lua_gc(L, LUA_GCSTOP);
  return 1;
}

void waymark_gc_resume(lua_State *L) { (void)lua_gc(L, LUA_GCRESTART); }

static int panic(lua_State *L) {
  // Only reached by a bug in LuaKit (an error outside any protected call).
  const char *msg = lua_tostring(L, -1);
  fprintf(stderr, "LuaKit: unprotected Lua error: %s\n", msg ? msg : "(not a string)");
  abort();
}

waymark_runtime *waymark_open(size_t limit) {
  waymark_runtime *rt = calloc(1, sizeof *rt);
  if (rt == NULL) return NULL;
  rt->limit = limit;
  rt->msgh_ref = LUA_NOREF;
  lua_State *L = waymark_newstate_seeded(rt);
  if (L == NULL) {
    waymark_pool_release(rt);
    free(rt);
    return NULL;
  }
  rt->main = L;
  atomic_store(&rt->running, L);
  lua_atpanic(L, panic);
  lua_pushcfunction(L, waymark_traceback);
  rt->msgh_ref = luaL_ref(L, LUA_REGISTRYINDEX);
  return rt;
}

void waymark_close(waymark_runtime *rt) {
  if (rt == NULL) return;
  waymark_watchdog_unregister(rt);
  rt->enforce = 0;
  lua_close(rt->main);
  waymark_pool_release(rt);
  free(rt);
}

static const struct {
  unsigned bit;
  const char *name;
  lua_CFunction open;
} libraries[] = {
    {WAYMARK_LIB_BASE, LUA_GNAME, luaopen_base},
    {WAYMARK_LIB_PACKAGE, LUA_LOADLIBNAME, luaopen_package},
    {WAYMARK_LIB_COROUTINE, LUA_COLIBNAME, luaopen_coroutine},
    {WAYMARK_LIB_TABLE, LUA_TABLIBNAME, luaopen_table},
    {WAYMARK_LIB_IO, LUA_IOLIBNAME, luaopen_io},
    {WAYMARK_LIB_OS, LUA_OSLIBNAME, luaopen_os},
    {WAYMARK_LIB_STRING, LUA_STRLIBNAME, luaopen_string},
    {WAYMARK_LIB_MATH, LUA_MATHLIBNAME, luaopen_math},
    {WAYMARK_LIB_UTF8, LUA_UTF8LIBNAME, luaopen_utf8},
    {WAYMARK_LIB_DEBUG, LUA_DBLIBNAME, luaopen_debug},
};

void waymark_openlibs(lua_State *L, unsigned libs) {
  for (size_t i = 0; i < sizeof libraries / sizeof libraries[0]; i++) {
    if (!(libs & libraries[i].bit)) continue;
    luaL_requiref(L, libraries[i].name, libraries[i].open, 1);
    switch (libraries[i].bit) {
    case WAYMARK_LIB_BASE: waymark_install_base_functions(L); break;
    case WAYMARK_LIB_COROUTINE: waymark_install_coroutine_wrappers(L); break;
    case WAYMARK_LIB_TABLE: waymark_install_table_functions(L); break;
    case WAYMARK_LIB_STRING: waymark_install_string_functions(L); break;
    case WAYMARK_LIB_UTF8: waymark_install_utf8_functions(L); break;
    default: break;
    }
    lua_pop(L, 1);
  }
}

// MARK: - Protected table access

static int is_plain_table(lua_State *L, int i) {
  if (lua_type(L, i) != LUA_TTABLE) return 0;
  if (!lua_getmetatable(L, i)) return 1;
  lua_pop(L, 1);
  return 0;
}

static int getfield_body(lua_State *L) { // (t, k) -> t[k]
  lua_gettable(L, 1);
  return 1;
}
static int setfield_body(lua_State *L) { // (t, k, v)
  lua_settable(L, 1);
  return 0;
}

int waymark_pgetfield(lua_State *L, int i, const char *k) {
  if (is_plain_table(L, i)) {
    lua_getfield(L, i, k);
    return LUA_OK;
  }
  i = lua_absindex(L, i);
  lua_pushcfunction(L, getfield_body);
  lua_pushvalue(L, i);
  lua_pushstring(L, k);
  return lua_pcall(L, 2, 1, 0);
}

int waymark_psetfield(lua_State *L, int i, const char *k) {
  if (is_plain_table(L, i)) {
    lua_setfield(L, i, k);
    return LUA_OK;
  }
  i = lua_absindex(L, i);
  lua_pushcfunction(L, setfield_body);
  lua_pushvalue(L, i);
  lua_pushstring(L, k);
  lua_rotate(L, -4, -1); // value to the top
  return lua_pcall(L, 3, 0, 0);
}

int waymark_pgeti(lua_State *L, int i, lua_Integer n) {
  if (is_plain_table(L, i)) {
    lua_geti(L, i, n);
    return LUA_OK;
  }
  i = lua_absindex(L, i);
  lua_pushcfunction(L, getfield_body);
  lua_pushvalue(L, i);
  lua_pushinteger(L, n);
  return lua_pcall(L, 2, 1, 0);
}

int waymark_pseti(lua_State *L, int i, lua_Integer n) {
  if (is_plain_table(L, i)) {
    lua_seti(L, i, n);
    return LUA_OK;
  }
  i = lua_absindex(L, i);
  lua_pushcfunction(L, setfield_body);
  lua_pushvalue(L, i);
  lua_pushinteger(L, n);
  lua_rotate(L, -4, -1);
  return lua_pcall(L, 3, 0, 0);
}
