// Two published bugs of Lua 5.4.4's compiler (lua.org/bugs.html, both fixed in 5.4.5) are
// reachable from any plugin or script, and the system library cannot be patched. So a text
// chunk that compiled is dumped and its bytecode inspected, function by function:
//
// - "'break' may not properly close variable in a 'for' loop". The CLOSE that a `break`
//   jumps to, right after a for loop, names the level above the loop's hidden variables
//   instead of the loop's base, so a generic for's closing value (its fourth value) is not
//   closed and Lua keeps a stale entry in its list of variables to close, which later closes
//   whatever value reuses that stack slot. Repaired: the CLOSE gets the loop's base, as
//   5.4.5 compiles it, and the repaired dump is loaded in place of the function.
// - "Wrong code generation for constants in bitwise operations". A constant left operand of
//   a bitwise operator, in a function with more than 255 constants, is loaded after the
//   right operand's jumps were emitted, which then skip it. Refused: the chunk does not
//   load, and the message names the line and how to write it instead.
//
// The binary chunk format walked here is the one lua_dump writes (ldump.c of Lua 5.4).
#include <string.h>

#include "internal.h"

// Opcodes of Lua 5.4 (lopcodes.h order).
enum {
  OP_LOADI = 1,
  OP_LOADK = 3,
  OP_LOADKX = 4,
  OP_BAND = 41,
  OP_SHR = 45,
  OP_CLOSE = 54,
  OP_JMP = 56,
  OP_FORLOOP = 73,
  OP_TFORLOOP = 77,
};
/// Constant tags in a dump (lobject.h variants).
enum { TAG_NIL = 0, TAG_FALSE = 1, TAG_TRUE = 17, TAG_INT = 3, TAG_FLOAT = 19, TAG_SHORT = 4, TAG_LONG = 20 };
/// The most constants an instruction can name in its operands.
enum { MAX_OPERAND_CONSTANTS = 256 };
/// Bytes of a dump's header: signature, version, format, check data, sizes, check numbers.
enum { HEADER_SIZE = 31 };

static unsigned opcode(uint32_t i) { return i & 0x7F; }
static unsigned field_a(uint32_t i) { return (i >> 7) & 0xFF; }
static unsigned field_b(uint32_t i) { return (i >> 16) & 0xFF; }
static long jump_offset(uint32_t i) { return (long)(i >> 7) - ((1L << 24) - 1); }

typedef struct {
  unsigned char *at;
  unsigned char *end;
  int ok;
  int repaired;       // CLOSE operands changed
  long bad_line;      // first line of a miscompiled bitwise operation, or 0
} walker;

static size_t read_size(walker *w) {
  size_t x = 0;
  for (;;) {
    if (w->at >= w->end) {
      w->ok = 0;
      return 0;
    }
    unsigned b = *w->at++;
    x = (x << 7) | (b & 0x7F);
    if (b & 0x80) return x;
  }
}

static unsigned char *skip(walker *w, size_t n) {
  unsigned char *start = w->at;
  if (!w->ok || n > (size_t)(w->end - w->at)) {
    w->ok = 0;
    w->at = w->end;
  } else {
    w->at += n;
  }
  return start;
}

static void skip_string(walker *w) {
  size_t n = read_size(w);
  if (n > 0) skip(w, n - 1);
}

static uint32_t instruction(const unsigned char *code, size_t pc) {
  uint32_t i;
  memcpy(&i, code + 4 * pc, 4);
  return i;
}

/// A function's debug information: the line of each instruction and its live locals.
typedef struct {
  long defined;
  const signed char *line_deltas;
  size_t line_count;
  const unsigned char *absolute; // (pc, line) size pairs, re-read on demand
  size_t absolute_count;
  const unsigned char *locals;   // (name, startpc, endpc) records
  size_t local_count;
  unsigned char *end;
} debug_info;

static long line_of(const debug_info *d, size_t pc) {
  if (d->line_count <= pc) return d->defined;
  long line = d->defined;
  walker abs = {(unsigned char *)d->absolute, d->end, 1, 0, 0};
  size_t next_pc = d->absolute_count > 0 ? read_size(&abs) : (size_t)-1;
  size_t seen = 0;
  for (size_t i = 0; i <= pc; i++) {
    if (d->line_deltas[i] == -0x80 && i == next_pc) {
      line = (long)read_size(&abs);
      next_pc = ++seen < d->absolute_count ? read_size(&abs) : (size_t)-1;
    } else {
      line += d->line_deltas[i];
    }
  }
  return line;
}

/// How many registers hold named locals at pc (temporaries lie above them).
static size_t live_locals(const debug_info *d, size_t pc) {
  walker w = {(unsigned char *)d->locals, d->end, 1, 0, 0};
  size_t live = 0;
  for (size_t i = 0; i < d->local_count && w.ok; i++) {
    skip_string(&w);
    size_t start = read_size(&w), end = read_size(&w);
    if (start <= pc && pc < end) live++;
  }
  return live;
}

/// Whether the bitwise instruction at pc computes from a constant that a jump skipped: its
/// left operand is a temporary last written by a constant load, and a jump from before that
/// load lands after it, up to pc.
static int skipped_constant(const unsigned char *code, size_t pc, const debug_info *d) {
  unsigned left = field_b(instruction(code, pc));
  if (left < live_locals(d, pc)) return 0;
  size_t load = pc;
  while (load > 0) {
    uint32_t i = instruction(code, --load);
    if (field_a(i) != left) continue;
    unsigned op = opcode(i);
    if (op != OP_LOADI && op != OP_LOADK && op != OP_LOADKX) return 0;
    for (size_t j = 0; j < load; j++) {
      uint32_t jump = instruction(code, j);
      if (opcode(jump) != OP_JMP) continue;
      long target = (long)j + 1 + jump_offset(jump);
      if (target > (long)load && target <= (long)pc) return 1;
    }
    return 0;
  }
  return 0;
}

static void walk_function(walker *w, int depth) {
  if (depth > 250) { // deeper than the parser allows
    w->ok = 0;
    return;
  }
  skip_string(w); // source
  debug_info d;
  d.defined = (long)read_size(w);
  (void)read_size(w); // last line defined
  skip(w, 3);         // parameters, vararg flag, stack size
  size_t code_count = read_size(w);
  if (code_count > (size_t)(w->end - w->at) / 4) {
    w->ok = 0;
    return;
  }
  unsigned char *code = skip(w, 4 * code_count);
  size_t constant_count = read_size(w);
  for (size_t k = 0; k < constant_count && w->ok; k++) {
    switch (*skip(w, 1)) {
    case TAG_NIL: case TAG_FALSE: case TAG_TRUE: break;
    case TAG_INT: case TAG_FLOAT: skip(w, 8); break;
    case TAG_SHORT: case TAG_LONG: skip_string(w); break;
    default: w->ok = 0;
    }
  }
  skip(w, 3 * read_size(w)); // upvalues
  size_t nested = read_size(w);
  for (size_t p = 0; p < nested && w->ok; p++) walk_function(w, depth + 1);
  d.line_count = read_size(w);
  d.line_deltas = (const signed char *)skip(w, d.line_count);
  d.absolute_count = read_size(w);
  d.absolute = w->at;
  for (size_t i = 0; i < d.absolute_count && w->ok; i++) {
    read_size(w);
    read_size(w);
  }
  d.local_count = read_size(w);
  d.locals = w->at;
  for (size_t i = 0; i < d.local_count && w->ok; i++) {
    skip_string(w);
    read_size(w);
    read_size(w);
  }
  size_t upvalue_names = read_size(w);
  for (size_t i = 0; i < upvalue_names && w->ok; i++) skip_string(w);
  d.end = w->at;
  if (!w->ok) return;

  for (size_t pc = 0; pc + 1 < code_count; pc++) {
    uint32_t loop = instruction(code, pc), next = instruction(code, pc + 1);
    unsigned op = opcode(loop);
    if ((op == OP_FORLOOP || op == OP_TFORLOOP) && opcode(next) == OP_CLOSE && field_a(next) > field_a(loop)) {
      next = (next & ~(0xFFu << 7)) | (field_a(loop) << 7);
      memcpy(code + 4 * (pc + 1), &next, 4);
      w->repaired = 1;
    }
  }
  if (constant_count > MAX_OPERAND_CONSTANTS && w->bad_line == 0) {
    for (size_t pc = 0; pc < code_count; pc++) {
      unsigned op = opcode(instruction(code, pc));
      if (op >= OP_BAND && op <= OP_SHR && skipped_constant(code, pc, &d)) {
        w->bad_line = line_of(&d, pc);
        break;
      }
    }
  }
}

/// lua_dump's writer: collects the dump in a buffer started on the first write, above the
/// function being dumped.
typedef struct {
  luaL_Buffer buffer;
  int started;
} dump_collector;

static int collect_dump(lua_State *L, const void *bytes, size_t size, void *data) {
  dump_collector *c = (dump_collector *)data;
  if (!c->started) {
    c->started = 1;
    luaL_buffinit(L, &c->buffer);
  }
  luaL_addlstring(&c->buffer, (const char *)bytes, size);
  return 0;
}

/// (function, name) -> the function, repaired if it had to be; raises the refusal of a
/// miscompiled bitwise operation.
static int repair(lua_State *L) {
  const char *name = lua_tostring(L, 2);
  dump_collector collector = {.started = 0};
  lua_settop(L, 2);
  lua_pushvalue(L, 1);
  lua_dump(L, collect_dump, &collector, 0);
  if (!collector.started) return 1;
  luaL_pushresult(&collector.buffer); // 1 function, 2 name, 3 copy of the function, 4 dump
  size_t size;
  const char *dump = lua_tolstring(L, 4, &size);
  unsigned char *copy = (unsigned char *)lua_newuserdatauv(L, size, 0); // writable
  memcpy(copy, dump, size);
  walker w = {copy + HEADER_SIZE + 1, copy + size, size > HEADER_SIZE + 1, 0, 0};
  walk_function(&w, 0);
  if (w.bad_line != 0) {
    lua_Debug ar;
    lua_pushvalue(L, 1);
    lua_getinfo(L, ">S", &ar);
    lua_pushfstring(L,
                    "%s:%d: Lua 5.4.4 compiles this bitwise operation wrongly (a constant left operand in a "
                    "function with more than 255 constants; fixed in Lua 5.4.5): put the constant on the "
                    "right or in a local variable, or move the constants into another function",
                    ar.short_src, (int)w.bad_line);
    return lua_error(L);
  }
  if (!w.ok || !w.repaired) {
    lua_settop(L, 1);
    return 1;
  }
  if (luaL_loadbufferx(L, (const char *)copy, size, name, "b") != LUA_OK) return lua_error(L);
  return 1;
}

int waymark_repair_chunk(lua_State *L, const char *name) {
  if (!lua_checkstack(L, 3)) return LUA_OK; // cannot inspect: keep the chunk as compiled
  lua_pushcfunction(L, repair);
  lua_insert(L, -2);
  lua_pushstring(L, name);
  int status = lua_pcall(L, 2, 1, 0);
  return status == LUA_ERRRUN ? LUA_ERRSYNTAX : status;
}
