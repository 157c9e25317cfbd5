#ifndef CLUAFLOOR_H
#define CLUAFLOOR_H

// The floor of lua_dispatch in waymark-bench: what a Lua event costs in plain C, with
// nothing of Waymark between the caller and the handler.

#include <lua.h>

/// Calls the Lua function at `function` `calls` times with lua_pcall, as `f(map, marker)`:
/// `map` is the value at `map`, `marker` a userdata whose `__index` is a C function reading
/// a C struct (`id`, `title`, `snippet` as strings, `position` as `{ lat =, lng = }`).
/// Returns how many calls returned true; -1 if a call failed (its message is on top).
long waymark_floor_dispatch(lua_State *L, int function, int map, long calls);

#endif
