#ifndef CLUASHIMS_STRING_SEED_H
#define CLUASHIMS_STRING_SEED_H
// A fixed seed for the hashes of a state's strings (string_seed.c).
#include "CLuaShims.h"

/// The seed every state hashes its strings with.
enum { WAYMARK_STRING_SEED = 0x5741594d }; // "WAYM"

/// Creates a state whose global seed is WAYMARK_STRING_SEED before it interns its first
/// string, allocating through waymark_alloc with `rt`; NULL when out of memory, or when the
/// linked library is not a release whose layout this file knows (waymark_open_failure
/// then says why).
lua_State *waymark_newstate_seeded(waymark_runtime *rt);
#endif
