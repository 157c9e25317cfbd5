// The floor of lua_dispatch: a marker as a C struct behind a C `__index`, and a loop of
// lua_pcall, the least any host can do to hand a marker to a Lua handler.
#include <string.h>

#include <lauxlib.h>

#include "CLuaFloor.h"

typedef struct {
  const char *id;
  const char *title;
  const char *snippet;
  double lat, lng;
} floor_marker;

static int floor_index(lua_State *L) {
  const floor_marker *m = (const floor_marker *)lua_touserdata(L, 1);
  const char *key = lua_tostring(L, 2);
  if (m == NULL || key == NULL) return 0;
  if (strcmp(key, "id") == 0) {
    lua_pushstring(L, m->id);
  } else if (strcmp(key, "title") == 0) {
    lua_pushstring(L, m->title);
  } else if (strcmp(key, "snippet") == 0) {
    lua_pushstring(L, m->snippet);
  } else if (strcmp(key, "position") == 0) {
    lua_createtable(L, 0, 2);
    lua_pushnumber(L, m->lat);
    lua_setfield(L, -2, "lat");
    lua_pushnumber(L, m->lng);
    lua_setfield(L, -2, "lng");
  } else {
    lua_pushnil(L);
  }
  return 1;
}

long waymark_floor_dispatch(lua_State *L, int function, int map, long calls) {
  function = lua_absindex(L, function);
  map = lua_absindex(L, map);
  floor_marker *m = (floor_marker *)lua_newuserdatauv(L, sizeof *m, 0);
  m->id = "melbourne";
  m->title = "Melbourne";
  m->snippet = NULL;
  m->lat = -37.81969;
  m->lng = 144.966085;
  lua_createtable(L, 0, 1);
  lua_pushcfunction(L, floor_index);
  lua_setfield(L, -2, "__index");
  lua_setmetatable(L, -2);
  int marker = lua_gettop(L);
  long answers = 0;
  for (long i = 0; i < calls; i++) {
    lua_pushvalue(L, function);
    lua_pushvalue(L, map);
    lua_pushvalue(L, marker);
    if (lua_pcall(L, 2, 1, 0) != LUA_OK) return -1;
    answers += lua_toboolean(L, -1);
    lua_settop(L, marker);
  }
  lua_settop(L, marker - 1);
  return answers;
}
