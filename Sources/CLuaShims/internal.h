#ifndef CLUASHIMS_INTERNAL_H
#define CLUASHIMS_INTERNAL_H
// Declarations shared by the shim's .c files, not exported to Swift.
#include <signal.h>

#include "CLuaShims.h"

/// Marks code that a signal handler runs: under ThreadSanitizer it is left uninstrumented,
/// since the signal may interrupt ThreadSanitizer's own runtime (thread_sanitizer.c).
#if WAYMARK_THREAD_SANITIZED
#define WAYMARK_SIGNAL_HANDLER_CODE __attribute__((disable_sanitizer_instrumentation))
#else
#define WAYMARK_SIGNAL_HANDLER_CODE
#endif
/// sigaction, past ThreadSanitizer's interceptor under ThreadSanitizer (thread_sanitizer.c).
int waymark_sigaction(int sig, const struct sigaction *action);
void *waymark_alloc(void *ud, void *ptr, size_t osize, size_t nsize);
/// Gives the chunks of the state's block pool back to the system, once Lua freed everything
/// (allocator.c).
void waymark_pool_release(waymark_runtime *rt);
/// Records a line or call event for coverage (coverage.c).
void waymark_coverage_record(lua_State *L, lua_Debug *ar);
/// Replaces coroutine.resume, coroutine.wrap and coroutine.close in the table on top.
void waymark_install_coroutine_wrappers(lua_State *L);
/// Replace functions of the library table on top with bounded versions: string.find, match,
/// gmatch, gsub, rep (pattern_lib.c, misc_lib.c); table.insert, remove, move, concat, unpack,
/// sort (table_lib.c); utf8.codes; load, collectgarbage and xpcall of the base library.
void waymark_install_pattern_functions(lua_State *L);
void waymark_install_string_functions(lua_State *L);
/// Replaces string.format in the string table on top with one that shows no addresses
/// (format_lib.c); its upvalue 2 is the renderer of `%s`, which the sandbox sets.
void waymark_install_format(lua_State *L);
void waymark_install_table_functions(lua_State *L);
void waymark_install_utf8_functions(lua_State *L);
void waymark_install_base_functions(lua_State *L);
/// lua_load from a reader function at `function` (its pieces kept alive at `anchor`), in
/// slices, like waymark_load.
int waymark_load_from_function(lua_State *L, int function, int anchor, const char *name, const char *mode);
/// Checks (and repairs) the function a text chunk compiled to, on top of the stack
/// (chunk_repair.c). Returns LUA_OK with the function, or an error status with the message.
int waymark_repair_chunk(lua_State *L, const char *name);
/// The traceback message handler.
int waymark_traceback(lua_State *L);

// MARK: - Swift functions and objects (trampoline.c, objects.c)

/// A retained Swift object owned by a full userdata.
typedef struct {
  void *box;
  waymark_release_function release;
} box_slot;

/// The upvalue of a Swift function: what to call and with which box.
typedef struct {
  box_slot slot;
  waymark_swift_function fn;
} function_slot;

/// The memory of an object userdata: the box, and what its field cache (a user value per
/// cached field) belongs to: the object's version when the cache was filled, and which
/// fields it holds (a bit each).
typedef struct {
  box_slot base;
  const struct field_cache *fields; ///< the type's cached fields (NULL: none)
  uint64_t seen;
  uint32_t filled;
} object_slot;

/// The cached fields of the object type of the metatable on top (objects.c), or NULL.
/// Stack: 0.
const struct field_cache *waymark_cached_fields_of_metatable(lua_State *L);
/// How many fields `fields` names: the user values each object of the type is made with.
int waymark_cached_field_count(const struct field_cache *fields);

/// Calls a Swift function as the trampoline does, from the C function running now: its
/// errors carry the position of this C function's Lua caller.
int waymark_call_swift(lua_State *L, function_slot *up);
/// The `__gc` of a box's userdata: releases the box once (trampoline.c).
int waymark_release_slot(lua_State *L);

#include "budget.h"

#endif
