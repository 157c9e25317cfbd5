// Three published bugs of Lua 5.4.4's compiler and virtual machine (lua.org/bugs.html, all
// fixed in 5.4.5 or 5.4.6) are reachable from any plugin or script, and the system library
// cannot be patched. So a text chunk that compiled is dumped, and its bytecode is inspected
// and rewritten function by function (the format: bytecode.h):
//
// - "'break' may not properly close variable in a 'for' loop". The CLOSE that a `break`
//   jumps to, right after a for loop, names the level above the loop's hidden variables
//   instead of the loop's base, so a generic for's closing value is not closed and Lua keeps
//   a stale entry in its list of variables to close, which later "closes" whatever value
//   reuses that stack slot. Repaired: the CLOSE names the loop's base, as 5.4.5 compiles it.
// - "Wrong line in error message for arith. errors". Integer division and modulo by zero
//   raise without saving the instruction pointer, so the message and the traceback name the
//   line of an earlier call. Repaired: each `//` and `%` that may divide by zero is preceded
//   by a CLOSE above every register (it closes nothing) because CLOSE saves the pointer.
// - "Wrong code generation for constants in bitwise operations". A constant left operand of
//   a bitwise operator, in a function with more than 255 constants, is loaded after the
//   right operand's jumps were emitted, which then skip it. Refused: the chunk does not
//   load, and the message names the line and how to write it instead.
//
// Everything here works on the C heap with no Lua call in between, so nothing can raise
// while a buffer is held.
#include <stdlib.h>
#include <string.h>

#include "bytecode.h"
#include "internal.h"

/// The most constants an instruction can name in its operands.
enum { MAX_OPERAND_CONSTANTS = 256 };
/// Line information: a delta per instruction, an absolute entry at least every 128 of them
/// or when a delta does not fit (ldebug.h's MAXIWTHABS, LIMLINEDIFF).
enum { MAX_WITHOUT_ABSOLUTE = 128, LARGEST_DELTA = 0x7F };

typedef struct {
  byte_buffer out;
  int changed;
  long bad_line;  // the line of a miscompiled bitwise operation, or 0
  int too_long;   // a jump no longer fits its operand
  int unreadable; // a dump this file cannot read: the chunk stays as compiled
  int failed;     // out of memory
} repair_state;

// MARK: - Detecting the bitwise miscompilation

/// How many registers hold named locals at pc (temporaries lie above them).
static size_t live_locals(const dumped_function *f, size_t pc) {
  byte_reader r = {f->locals, f->end, 1};
  size_t live = 0;
  for (size_t i = 0; i < f->local_count && r.ok; i++) {
    size_t name = reader_size(&r);
    if (name > 0) reader_bytes(&r, name - 1);
    size_t start = reader_size(&r), end = reader_size(&r);
    if (start <= pc && pc < end) live++;
  }
  return live;
}

/// Whether instruction i loads a value into register r without testing anything: how the
/// right operand of a comparison or `and`/`or` gets its final value.
static int loads_into(uint32_t i, unsigned r) {
  switch (opcode(i)) {
  case OP_MOVE: case OP_LOADI: case OP_LOADF: case OP_LOADK: case OP_LOADKX:
  case OP_LOADFALSE: case OP_LFALSESKIP: case OP_LOADTRUE: case OP_LOADNIL:
    return field_a(i) == r;
  default: return 0;
  }
}

/// Whether the bitwise instruction at pc computes from a constant that its right operand's
/// jumps skipped: the left operand is a temporary last written by a constant load, and a
/// jump from before that load lands after it (up to pc), coming from a test that sets the
/// right operand or landing where the right operand gets its value.
static int skipped_constant(const dumped_function *f, size_t pc) {
  uint32_t operation = code_at(f, pc);
  unsigned left = field_b(operation), right = field_c(operation);
  if (left < live_locals(f, pc)) return 0;
  size_t load = pc;
  while (load > 0) {
    uint32_t i = code_at(f, --load);
    if (field_a(i) != left) continue;
    if (opcode(i) != OP_LOADI && opcode(i) != OP_LOADK && opcode(i) != OP_LOADKX) return 0;
    for (size_t j = 1; j < load; j++) {
      uint32_t jump = code_at(f, j);
      if (opcode(jump) != OP_JMP) continue;
      long target = (long)j + 1 + field_sj(jump);
      if (target <= (long)load || target > (long)pc) continue;
      uint32_t test = code_at(f, j - 1);
      if ((opcode(test) == OP_TESTSET && field_a(test) == right) || loads_into(code_at(f, (size_t)target), right)) {
        return 1;
      }
    }
    return 0;
  }
  return 0;
}

// MARK: - Rewriting a function

/// Whether the instruction may divide an integer by zero (and so needs its pointer saved).
static int may_divide_by_zero(const dumped_function *f, uint32_t i) {
  switch (opcode(i)) {
  case OP_IDIV: case OP_MOD: return 1;
  case OP_IDIVK: case OP_MODK: return constant_is_integer_zero(f, field_c(i));
  default: return 0;
  }
}

/// Where an old jump target lands after the insertions (on the CLOSE inserted before it), or
/// -1 for a target outside the function.
static long moved_target(const size_t *before, size_t count, long target) {
  if (target < 0 || target > (long)count) return -1;
  return target + (long)before[target];
}

/// Rewrites the jump at old pc (now at `at`) for the insertions; 0 if an offset overflows.
static int relocate(uint32_t *i, size_t pc, long at, const size_t *before, size_t count) {
  long p = (long)pc;
  switch (opcode(*i)) {
  case OP_JMP: {
    long target = moved_target(before, count, p + 1 + field_sj(*i));
    long offset = target - (at + 1);
    if (target < 0 || offset < -MAX_SJ || offset > MAX_SJ) return 0;
    if (offset < -MAX_SJ || offset > MAX_SJ) return 0;
    *i = with_sj(*i, offset);
    return 1;
  }
  case OP_FORPREP: case OP_TFORPREP: { // forward: past the loop, or to its call
    long skip = opcode(*i) == OP_FORPREP ? 2 : 1;
    long target = moved_target(before, count, p + skip + field_bx(*i));
    long bx = target - (at + skip);
    if (target < 0 || bx < 0 || bx > MAX_BX) return 0;
    *i = with_bx(*i, bx);
    return 1;
  }
  case OP_FORLOOP: case OP_TFORLOOP: { // backward: to the loop's body
    long target = moved_target(before, count, p + 1 - field_bx(*i));
    long bx = (at + 1) - target;
    if (target < 0 || bx < 0 || bx > MAX_BX) return 0;
    *i = with_bx(*i, bx);
    return 1;
  }
  default: return 1;
  }
}

/// Writes line information for `count` instructions with these lines.
static void write_lines(byte_buffer *out, const long *lines, size_t count, long defined) {
  byte_buffer absolute = {0};
  size_t absolute_count = 0, without = 0;
  long previous = defined;
  buffer_append_size(out, count);
  for (size_t pc = 0; pc < count; pc++) {
    long delta = lines[pc] - previous;
    signed char byte = (signed char)delta;
    if (delta > LARGEST_DELTA || delta < -LARGEST_DELTA || without++ >= MAX_WITHOUT_ABSOLUTE) {
      buffer_append_size(&absolute, pc);
      buffer_append_size(&absolute, (size_t)lines[pc]);
      absolute_count++;
      byte = -0x80;
      without = 1;
    }
    buffer_append(out, &byte, 1);
    previous = lines[pc];
  }
  buffer_append_size(out, absolute_count);
  buffer_append(out, absolute.data, absolute.size);
  if (absolute.failed) out->failed = 1;
  free(absolute.data);
}

/// Writes the function f (its nested functions read from their reader) repaired.
static void rewrite(repair_state *s, const dumped_function *f, byte_reader *nested, int depth);

/// Rewrites the code of f into `code` (room for 2 x code_count) and the line of each new
/// instruction into `lines`, from the old ones in `old_lines`; `before[pc]` counts the CLOSEs
/// inserted before old instruction pc. Returns the new count.
static size_t rewrite_code(repair_state *s, const dumped_function *f, uint32_t *code, long *lines,
                           const long *old_lines, size_t *before) {
  size_t n = f->code_count, inserted = 0;
  for (size_t pc = 0; pc < n; pc++) {
    before[pc] = inserted;
    if (may_divide_by_zero(f, code_at(f, pc))) inserted++;
  }
  before[n] = inserted;
  size_t at = 0;
  for (size_t pc = 0; pc < n; pc++) {
    uint32_t i = code_at(f, pc);
    // A CLOSE right after a loop closes from the loop's base (the 'break' bug).
    if (pc > 0 && opcode(i) == OP_CLOSE) {
      uint32_t loop = code_at(f, pc - 1);
      if ((opcode(loop) == OP_FORLOOP || opcode(loop) == OP_TFORLOOP) && field_a(i) > field_a(loop)) {
        i = with_a(i, field_a(loop));
        s->changed = 1;
      }
    }
    long line = f->line_count == n ? old_lines[pc] : 0;
    if (before[pc + 1] > before[pc]) { // a CLOSE above every register saves the pointer
      lines[at] = line;
      code[at++] = OP_CLOSE | ((uint32_t)f->max_stack << 7);
      s->changed = 1;
    }
    if (!relocate(&i, pc, (long)at, before, n)) s->too_long = 1;
    lines[at] = line;
    code[at++] = i;
  }
  return at;
}

static void rewrite(repair_state *s, const dumped_function *f, byte_reader *nested, int depth) {
  size_t n = f->code_count;
  if (f->constant_count > MAX_OPERAND_CONSTANTS && s->bad_line == 0) {
    for (size_t pc = 0; pc < n; pc++) {
      unsigned op = opcode(code_at(f, pc));
      if (op >= OP_BAND && op <= OP_SHR && skipped_constant(f, pc)) {
        long *lines = malloc((n + 1) * sizeof *lines);
        if (lines == NULL) return (void)(s->failed = 1);
        decode_lines(f, lines);
        s->bad_line = f->line_count == n ? lines[pc] : f->line_defined;
        free(lines);
        return;
      }
    }
  }
  uint32_t *code = malloc((2 * n + 1) * sizeof *code);
  long *lines = malloc((2 * n + 1) * sizeof *lines);
  long *old_lines = malloc((n + 1) * sizeof *old_lines);
  size_t *before = malloc((n + 1) * sizeof *before);
  if (code == NULL || lines == NULL || old_lines == NULL || before == NULL) {
    s->failed = 1;
  } else {
    if (f->line_count == n) decode_lines(f, old_lines);
    size_t count = rewrite_code(s, f, code, lines, old_lines, before);
    byte_buffer *out = &s->out;
    buffer_append(out, f->header, (size_t)(f->header_end - f->header));
    buffer_append_size(out, count);
    buffer_append(out, code, 4 * count);
    buffer_append(out, f->constants_and_upvalues,
                  (size_t)(f->constants_and_upvalues_end - f->constants_and_upvalues));
    buffer_append_size(out, f->proto_count);
    for (size_t p = 0; p < f->proto_count && !s->failed && !s->unreadable && s->bad_line == 0; p++) {
      dumped_function inner;
      if (!read_function(nested, &inner, depth + 1)) {
        s->unreadable = 1;
        break;
      }
      byte_reader inner_nested = {inner.protos, nested->at, 1};
      rewrite(s, &inner, &inner_nested, depth + 1);
    }
    if (f->line_count == n) {
      write_lines(out, lines, count, f->line_defined);
    } else {
      buffer_append_size(out, 0);
      buffer_append_size(out, 0);
    }
    byte_reader locals = {f->locals, f->end, 1};
    buffer_append_size(out, f->local_count);
    for (size_t i = 0; i < f->local_count && locals.ok; i++) {
      const unsigned char *name = locals.at;
      size_t length = reader_size(&locals);
      if (length > 0) reader_bytes(&locals, length - 1);
      buffer_append(out, name, (size_t)(locals.at - name));
      size_t start = reader_size(&locals), end = reader_size(&locals);
      buffer_append_size(out, start <= n ? start + before[start] : start);
      buffer_append_size(out, end <= n ? end + before[end] : end);
    }
    buffer_append(out, f->upvalue_names, (size_t)(f->end - f->upvalue_names));
  }
  free(code);
  free(lines);
  free(old_lines);
  free(before);
}

// MARK: - The chunk

static int collect_dump(lua_State *L, const void *bytes, size_t size, void *data) {
  (void)L;
  byte_buffer *b = (byte_buffer *)data;
  buffer_append(b, bytes, size);
  return b->failed;
}

int waymark_repair_chunk(lua_State *L, const char *name) {
  byte_buffer dump = {0};
  repair_state s = {{0}, 0, 0, 0, 0, 0};
  if (lua_dump(L, collect_dump, &dump, 0) != 0 || dump.failed) {
    s.failed = 1;
  } else if (dump.size <= DUMP_HEADER_SIZE + 1) {
    s.unreadable = 1;
  } else {
    byte_reader r = {dump.data + DUMP_HEADER_SIZE + 1, dump.data + dump.size, 1};
    dumped_function main;
    if (read_function(&r, &main, 0)) {
      buffer_append(&s.out, dump.data, DUMP_HEADER_SIZE + 1);
      byte_reader nested = {main.protos, main.end, 1};
      rewrite(&s, &main, &nested, 0);
      if (s.out.failed) s.failed = 1;
    } else {
      s.unreadable = 1;
    }
  }
  free(dump.data);
  int status = LUA_OK;
  if (s.bad_line != 0) {
    lua_Debug ar;
    lua_pushvalue(L, -1);
    lua_getinfo(L, ">S", &ar);
    lua_pop(L, 1);
    lua_pushfstring(L,
                    "%s:%d: Lua 5.4.4 compiles this bitwise operation wrongly (a constant left operand in a "
                    "function with more than 255 constants; fixed in Lua 5.4.5): put the constant on the "
                    "right or in a local variable, or move the constants into another function",
                    ar.short_src, (int)s.bad_line);
    lua_remove(L, -2);
    status = LUA_ERRSYNTAX;
  } else if (s.too_long) {
    lua_pop(L, 1);
    lua_pushfstring(L, "%s: control structure too long (once its divisions are made to report their line)", name);
    status = LUA_ERRSYNTAX;
  } else if (s.failed) {
    lua_pop(L, 1);
    lua_pushliteral(L, "not enough memory to check the compiled chunk");
    status = LUA_ERRMEM;
  } else if (s.changed && !s.unreadable) {
    status = luaL_loadbufferx(L, (const char *)s.out.data, s.out.size, name, "b");
    if (status == LUA_OK) lua_remove(L, -2); // the repaired function in place of the original
    else lua_remove(L, -2);                  // the error in place of the function
  }
  free(s.out.data);
  return status;
}
