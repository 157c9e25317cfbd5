// coroutine.resume, coroutine.wrap and coroutine.close, written for the watchdog: hooks are
// per thread, so whenever Lua code runs on another coroutine (its body, or the __close
// handlers of its to-be-closed variables), the runtime is told which thread runs, and a
// thread entered after the budget expired is armed before it runs.
#include "CLuaShims.h"
#include "internal.h"

/// Runs `body` with `co` as the running thread, then hands control back to `L`; a timeout
/// that killed `co` is passed on to `L`.
#define WITH_RUNNING(L, co, body)                  \
  do {                                             \
    waymark_runtime *rt_ = waymark_runtime_of(L);  \
    waymark_set_running(rt_, (co));                \
    waymark_count_on(rt_, (co));                   \
    waymark_arm_if_expired(rt_, (co));             \
    body;                                          \
    waymark_set_running(rt_, (L));                 \
    waymark_arm_if_expired(rt_, (L));              \
  } while (0)

/// Moves `nargs` values from L to co and resumes co. Returns how many results were moved
/// back onto L, or -1 with the error message on top of L.
static int resume_with(lua_State *L, lua_State *co, int nargs) {
  waymark_check_cstack(L);
  if (!lua_checkstack(co, nargs)) {
    lua_pushliteral(L, "too many arguments to resume");
    return -1;
  }
  lua_xmove(L, co, nargs);
  int status, results = 0;
  WITH_RUNNING(L, co, status = lua_resume(co, L, nargs, &results));
  if (status != LUA_OK && status != LUA_YIELD) {
    lua_xmove(co, L, 1);
    return -1;
  }
  if (!lua_checkstack(L, results + 1)) {
    lua_pop(co, results);
    lua_pushliteral(L, "too many results to resume");
    return -1;
  }
  lua_xmove(co, L, results);
  return results;
}

/// coroutine.resume(co, ...): true and the results, or false and the error.
static int resume(lua_State *L) {
  lua_State *co = lua_tothread(L, 1);
  luaL_argexpected(L, co != NULL, 1, "thread");
  int results = resume_with(L, co, lua_gettop(L) - 1);
  lua_pushboolean(L, results >= 0);
  if (results < 0) {
    lua_insert(L, -2);
    return 2;
  }
  lua_insert(L, -(results + 1));
  return results + 1;
}

/// The function coroutine.wrap returns: resumes its coroutine, raises its errors (after
/// closing the coroutine's to-be-closed variables, on the coroutine's thread).
static int wrapped(lua_State *L) {
  lua_State *co = lua_tothread(L, lua_upvalueindex(1));
  int results = resume_with(L, co, lua_gettop(L));
  if (results >= 0) return results;
  int status = lua_status(co);
  if (status != LUA_OK && status != LUA_YIELD) {
    WITH_RUNNING(L, co, status = lua_resetthread(co));
    lua_xmove(co, L, 1);
  }
  if (status != LUA_ERRMEM && lua_type(L, -1) == LUA_TSTRING) {
    luaL_where(L, 1);
    lua_insert(L, -2);
    lua_concat(L, 2);
  }
  return lua_error(L);
}

static int wrap(lua_State *L) {
  luaL_checktype(L, 1, LUA_TFUNCTION);
  lua_State *co = lua_newthread(L);
  lua_pushvalue(L, 1);
  lua_xmove(L, co, 1);
  lua_pushcclosure(L, wrapped, 1);
  return 1;
}

/// coroutine.close(co): closes a suspended or dead coroutine's to-be-closed variables.
static int close_coroutine(lua_State *L) {
  lua_State *co = lua_tothread(L, 1);
  luaL_argexpected(L, co != NULL, 1, "thread");
  lua_Debug frame;
  int status = lua_status(co);
  int suspended = status == LUA_YIELD || (status == LUA_OK && lua_getstack(co, 0, &frame) == 0);
  int dead = status != LUA_OK && status != LUA_YIELD;
  if (co == L || !(suspended || dead)) {
    return luaL_error(L, "cannot close a %s coroutine", co == L ? "running" : "normal");
  }
  waymark_check_cstack(L); // closing runs __close handlers, which may close others (bug in 5.4.4)
  WITH_RUNNING(L, co, status = lua_resetthread(co));
  if (status == LUA_OK) {
    lua_pushboolean(L, 1);
    return 1;
  }
  lua_pushboolean(L, 0);
  lua_xmove(co, L, 1);
  return 2;
}

void waymark_install_coroutine_wrappers(lua_State *L) {
  lua_pushcfunction(L, resume);
  lua_setfield(L, -2, "resume");
  lua_pushcfunction(L, wrap);
  lua_setfield(L, -2, "wrap");
  lua_pushcfunction(L, close_coroutine);
  lua_setfield(L, -2, "close");
}
