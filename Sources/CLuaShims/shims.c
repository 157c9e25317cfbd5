#include "CLuaShims.h"
const char *waymark_lua_release(void) { return LUA_RELEASE; }
