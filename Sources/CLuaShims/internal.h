#ifndef CLUASHIMS_INTERNAL_H
#define CLUASHIMS_INTERNAL_H
// Declarations shared by the shim's .c files, not exported to Swift.
#include "CLuaShims.h"

void *waymark_alloc(void *ud, void *ptr, size_t osize, size_t nsize);
/// Watchdog registration (under its mutex; not per call).
void waymark_watchdog_register(waymark_runtime *rt);
void waymark_watchdog_unregister(waymark_runtime *rt);
/// Arms the budget hook on L (owner thread) if the current call timed out.
void waymark_arm_if_expired(waymark_runtime *rt, lua_State *L);
/// Publishes L as the running thread; waits out a watchdog arming the old one.
void waymark_set_running(waymark_runtime *rt, lua_State *L);
/// Replaces coroutine.resume, coroutine.wrap and coroutine.close in the table on top.
void waymark_install_coroutine_wrappers(lua_State *L);
/// The traceback message handler.
int waymark_traceback(lua_State *L);
#endif
