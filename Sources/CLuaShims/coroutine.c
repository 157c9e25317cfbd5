// coroutine.resume and coroutine.wrap that tell the watchdog which thread
// runs (hooks are per coroutine), and arm a coroutine resumed after the
// budget expired before it runs. Adapted from Lua 5.4's lcorolib.c.
#include "CLuaShims.h"
#include "internal.h"

static int auxresume(lua_State *L, lua_State *co, int narg) {
  int status, nres;
  if (!lua_checkstack(co, narg)) {
    lua_pushliteral(L, "too many arguments to resume");
    return -1;
  }
  lua_xmove(L, co, narg);
  waymark_runtime *rt = waymark_runtime_of(L);
  waymark_set_running(rt, co);
  waymark_arm_if_expired(rt, co);
  status = lua_resume(co, L, narg, &nres);
  waymark_set_running(rt, L);
  waymark_arm_if_expired(rt, L); // the coroutine died of the timeout: so does its resumer
  if (status == LUA_OK || status == LUA_YIELD) {
    if (!lua_checkstack(L, nres + 1)) {
      lua_pop(co, nres);
      lua_pushliteral(L, "too many results to resume");
      return -1;
    }
    lua_xmove(co, L, nres);
    return nres;
  }
  lua_xmove(co, L, 1);
  return -1;
}

static int resume(lua_State *L) {
  lua_State *co = lua_tothread(L, 1);
  luaL_argexpected(L, co, 1, "coroutine");
  int r = auxresume(L, co, lua_gettop(L) - 1);
  if (r < 0) {
    lua_pushboolean(L, 0);
    lua_insert(L, -2);
    return 2;
  }
  lua_pushboolean(L, 1);
  lua_insert(L, -(r + 1));
  return r + 1;
}

static int auxwrap(lua_State *L) {
  lua_State *co = lua_tothread(L, lua_upvalueindex(1));
  int r = auxresume(L, co, lua_gettop(L));
  if (r < 0) {
    int stat = lua_status(co);
    if (stat != LUA_OK && stat != LUA_YIELD) {
      stat = lua_resetthread(co); // close its to-be-closed variables
      lua_xmove(co, L, 1);
    }
    if (stat != LUA_ERRMEM && lua_type(L, -1) == LUA_TSTRING) {
      luaL_where(L, 1);
      lua_insert(L, -2);
      lua_concat(L, 2);
    }
    return lua_error(L);
  }
  return r;
}

static int wrap(lua_State *L) {
  luaL_checktype(L, 1, LUA_TFUNCTION);
  lua_State *co = lua_newthread(L);
  lua_pushvalue(L, 1);
  lua_xmove(L, co, 1);
  lua_pushcclosure(L, auxwrap, 1);
  return 1;
}

void waymark_install_coroutine_wrappers(lua_State *L) {
  lua_pushcfunction(L, resume);
  lua_setfield(L, -2, "resume");
  lua_pushcfunction(L, wrap);
  lua_setfield(L, -2, "wrap");
}
