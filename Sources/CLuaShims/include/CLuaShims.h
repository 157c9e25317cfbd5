#ifndef CLUASHIMS_H
#define CLUASHIMS_H
#include <lua.h>
/// The Lua version string, which Swift cannot import as a macro.
const char *waymark_lua_release(void);
#endif
