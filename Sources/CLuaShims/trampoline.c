// The error trampoline: Swift functions called from Lua never raise. They
// return a status and C raises after the Swift frame has returned, so no
// longjmp ever crosses Swift. Also the release of a retained box (a Swift
// function's, or an object's: objects.c) and the traceback message handler.
#include <string.h>

#include "CLuaShims.h"
#include "internal.h"

static const char *const function_tname = "waymark.SwiftFunction";

int waymark_release_slot(lua_State *L) {
  box_slot *slot = (box_slot *)lua_touserdata(L, 1);
  if (slot != NULL && slot->box != NULL) {
    void *box = slot->box;
    slot->box = NULL; // released exactly once, even if __gc is called again
    slot->release(box);
  }
  return 0;
}

static int trampoline(lua_State *L) {
  return waymark_call_swift(L, (function_slot *)lua_touserdata(L, lua_upvalueindex(1)));
}

int waymark_call_swift(lua_State *L, function_slot *up) {
  if (up->slot.box == NULL) return luaL_error(L, "Swift function called after release");
  waymark_runtime *rt = waymark_runtime_of(L);
  int saved_enforce = rt->enforce;
  rt->enforce = 0; // Swift code must never meet a memory-error longjmp
  int n = up->fn(L, up->slot.box);
  rt->enforce = saved_enforce;
  if (n >= 0) return n;
  if (n == WAYMARK_RAISE_WITH_POSITION && lua_type(L, -1) == LUA_TSTRING) {
    luaL_where(L, 1);
    lua_insert(L, -2);
    lua_concat(L, 2);
  }
  return lua_error(L); // the Swift frame has returned: safe to longjmp
}

void waymark_push_swift_function(lua_State *L, waymark_swift_function fn, void *box,
                                 waymark_release_function release) {
  function_slot *up = (function_slot *)lua_newuserdatauv(L, sizeof *up, 0);
  up->slot.box = box;
  up->slot.release = release;
  up->fn = fn;
  if (luaL_newmetatable(L, function_tname)) {
    lua_pushcfunction(L, waymark_release_slot);
    lua_setfield(L, -2, "__gc");
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable"); // scripts cannot reach the slot
  }
  lua_setmetatable(L, -2);
  lua_pushcclosure(L, trampoline, 1);
}

// MARK: - Message handler

int waymark_traceback(lua_State *L) {
  const char *msg = lua_tostring(L, 1);
  if (msg == NULL) {
    if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING) {
      msg = lua_tostring(L, -1);
    } else {
      msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    }
  }
  luaL_traceback(L, L, msg, 1);
  return 1;
}
