// Two published bugs of Lua 5.4.4's compiler (lua.org/bugs.html, fixed in the releases after
// it) are reachable from any plugin or script, and the system library cannot be patched. So a
// text chunk that compiled is dumped and its bytecode inspected function by function (the
// format: bytecode.h):
//
// - "'break' may not properly close variable in a 'for' loop". The CLOSE that a `break`
//   jumps to, right after a for loop, names the level above the loop's hidden variables
//   instead of the loop's base, so a generic for's closing value is not closed and Lua keeps
//   a stale entry in its list of variables to close, which later "closes" whatever value
//   reuses that stack slot (a use of freed stack). Repaired in place: the CLOSE's register
//   operand becomes the loop's base, as later releases compile it. No instruction moves, no
//   length changes.
// - "Wrong code generation for constants in bitwise operations". A constant left operand of
//   a bitwise operator, in a function with more than 255 constants, is loaded after the
//   right operand's jumps were emitted, which then skip it. Refused: the chunk does not
//   load, and the message names the line and how to write it instead.
//
// The repaired chunk is loaded back as binary, which Lua does not verify, so nothing is
// rewritten on trust. The checks run only on the release they were written for (the linked
// library's, read at run time: the shared library can be upgraded under a built binary), a
// release that has the fixes needs none, and any other is refused. And before the first
// chunk, a probe chunk compiled by the linked library must dump with the expected header and
// exactly the expected opcodes, and each dump is checked for the header again. Whatever does
// not match is refused with a message saying why; nothing else is ever rewritten.
//
// Everything here works on the C heap with no Lua call in between, so nothing can raise
// while a buffer is held.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytecode.h"
#include "internal.h"

/// The most constants an instruction can name in its operands.
enum { MAX_OPERAND_CONSTANTS = 256 };

/// The release whose bugs these checks repair, and the first release with both fixes
/// (5.4.5 was withdrawn within days of its release and is not trusted either way).
enum { REPAIRED_RELEASE = 50404, FIXED_RELEASE = 50406 };

int waymark_repair_plan(const char *ident) {
  const char *version = ident != NULL ? strstr(ident, "Lua ") : NULL;
  int major, minor, release, length = 0;
  if (version == NULL || sscanf(version, "Lua %d.%d.%d%n", &major, &minor, &release, &length) != 3 ||
      (version[length] != ' ' && version[length] != '\0')) {
    return WAYMARK_REPAIR_UNSUPPORTED;
  }
  if (major != 5 || minor != 4) return WAYMARK_REPAIR_UNSUPPORTED;
  int number = major * 10000 + minor * 100 + release;
  return number == REPAIRED_RELEASE ? WAYMARK_REPAIR_NEEDED
         : number >= FIXED_RELEASE  ? WAYMARK_REPAIR_NOT_NEEDED
                                    : WAYMARK_REPAIR_UNSUPPORTED;
}

typedef struct {
  unsigned char *dump; // the chunk's dump, patched in place
  int changed;
  long bad_line;  // the line of a miscompiled bitwise operation, or 0
  int unreadable; // a dump this file cannot read
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

// MARK: - Repairing a function

/// Checks f and the functions nested in it (read from `nested`), in place in s->dump.
static void repair(repair_state *s, const dumped_function *f, byte_reader *nested, int depth) {
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
  // A CLOSE right after a loop closes from the loop's base (the 'break' bug).
  for (size_t pc = 1; pc < n; pc++) {
    uint32_t i = code_at(f, pc), loop = code_at(f, pc - 1);
    if (opcode(i) == OP_CLOSE && (opcode(loop) == OP_FORLOOP || opcode(loop) == OP_TFORLOOP) &&
        field_a(i) > field_a(loop)) {
      i = with_a(i, field_a(loop));
      memcpy(s->dump + (f->code - s->dump) + 4 * pc, &i, 4);
      s->changed = 1;
    }
  }
  for (size_t p = 0; p < f->proto_count && !s->failed && !s->unreadable && s->bad_line == 0; p++) {
    dumped_function inner;
    if (!read_function(nested, &inner, depth + 1)) {
      s->unreadable = 1;
      return;
    }
    byte_reader inner_nested = {inner.protos, nested->at, 1};
    repair(s, &inner, &inner_nested, depth + 1);
  }
}

/// Dumps the function on top of L and checks it into s (s->dump is the dump, to free).
static size_t check_dump(lua_State *L, repair_state *s);

// MARK: - The probe

/// A chunk with both loops the 'break' repair patches, every load the bitwise check looks
/// at and every bitwise operator, and the opcodes Lua 5.4.4 compiles it to: if the linked
/// library numbers or compiles them otherwise, no text chunk loads.
static const char probe_source[] =
    "local t, u = ...\n"
    "for k in t, u do local function f() return k end break end\n"
    "for i = 1, 2 do local function f() return i end break end\n"
    "return t or 7, u or 2.0, u or 1.5, t & u, t | u, t ~ u, t << u, t >> u, t == u, nil, true, false\n";
static const unsigned char probe_opcodes[] = {
    OP_VARARGPREP, OP_VARARG, OP_MOVE, OP_MOVE, OP_LOADNIL, OP_TFORPREP, OP_CLOSURE, OP_JMP, OP_CLOSE,
    OP_TFORCALL, OP_TFORLOOP, OP_CLOSE, OP_LOADI, OP_LOADI, OP_LOADI, OP_FORPREP, OP_CLOSURE, OP_JMP,
    OP_CLOSE, OP_FORLOOP, OP_CLOSE, OP_TESTSET, OP_JMP, OP_LOADI, OP_TESTSET, OP_JMP, OP_LOADF,
    OP_TESTSET, OP_JMP, OP_LOADK, OP_BAND, OP_MMBIN, OP_BOR, OP_MMBIN, OP_BXOR, OP_MMBIN, OP_SHL,
    OP_MMBIN, OP_SHR, OP_MMBIN, OP_EQ, OP_JMP, OP_LFALSESKIP, OP_LOADTRUE, OP_LOADNIL, OP_LOADTRUE,
    OP_LOADFALSE, OP_RETURN, OP_RETURN,
};
/// Where the probe's two CLOSEs after a loop are, and the base each must be given.
static const size_t probe_closes[2][2] = {{11, 2}, {20, 2}};

/// Why the checks cannot run on the linked library (NULL: they can), and whether it needs
/// them; found once, before the first chunk.
static const char *unsupported = NULL;
static int repairs_needed = 0;
static pthread_once_t probed = PTHREAD_ONCE_INIT;

static const char *probe_failure(void) {
  lua_State *L = luaL_newstate();
  if (L == NULL) return "no memory for the probe chunk";
  const char *failure = NULL;
  repair_state s = {0};
  if (luaL_loadbufferx(L, probe_source, sizeof probe_source - 1, "=probe", "t") != LUA_OK) {
    failure = "the probe chunk does not compile";
  } else {
    dumped_function main;
    size_t size = check_dump(L, &s);
    if (s.failed) failure = "no memory for the probe chunk";
    else if (!waymark_dump_header_is_expected(s.dump, size)) failure = "its binary chunks have another header";
    else if (s.unreadable) failure = "its binary chunks have another layout";
    else {
      byte_reader r = {s.dump + DUMP_HEADER_SIZE + 1, s.dump + size, 1};
      if (!read_function(&r, &main, 0) || main.code_count != sizeof probe_opcodes) failure = "it compiles otherwise";
    }
    if (failure == NULL) {
      for (size_t pc = 0; pc < main.code_count && failure == NULL; pc++) {
        if (opcode(code_at(&main, pc)) != probe_opcodes[pc]) failure = "it numbers or compiles its opcodes otherwise";
      }
      for (int k = 0; k < 2 && failure == NULL; k++) {
        if (!s.changed || field_a(code_at(&main, probe_closes[k][0])) != probe_closes[k][1]) {
          failure = "its loops compile otherwise";
        }
      }
    }
  }
  free(s.dump);
  lua_close(L);
  return failure;
}

static void probe(void) {
  switch (waymark_repair_plan(lua_ident)) {
  case WAYMARK_REPAIR_NEEDED:
    repairs_needed = 1;
    unsupported = probe_failure();
    break;
  case WAYMARK_REPAIR_NOT_NEEDED: break;
  default: unsupported = "the checks are written for Lua 5.4.4 and know the fixes of 5.4.6 and later";
  }
}

const char *waymark_bytecode_checks_unsupported(void) {
  pthread_once(&probed, probe);
  return unsupported;
}

// MARK: - The chunk

static int collect_dump(lua_State *L, const void *bytes, size_t size, void *data) {
  (void)L;
  byte_buffer *b = (byte_buffer *)data;
  buffer_append(b, bytes, size);
  return b->failed;
}

static size_t check_dump(lua_State *L, repair_state *s) {
  byte_buffer dump = {0};
  int status = lua_dump(L, collect_dump, &dump, 0);
  s->dump = dump.data; // the caller frees it
  if (status != 0 || dump.failed) {
    s->failed = 1;
  } else if (dump.size <= DUMP_HEADER_SIZE + 1 || !waymark_dump_header_is_expected(dump.data, dump.size)) {
    s->unreadable = 1;
  } else {
    byte_reader r = {dump.data + DUMP_HEADER_SIZE + 1, dump.data + dump.size, 1};
    dumped_function main;
    if (read_function(&r, &main, 0) && r.at == r.end) {
      byte_reader nested = {main.protos, main.end, 1};
      repair(s, &main, &nested, 0);
    } else {
      s->unreadable = 1;
    }
  }
  return dump.size;
}

int waymark_repair_chunk(lua_State *L, const char *name) {
  const char *reason = waymark_bytecode_checks_unsupported();
  if (reason != NULL) {
    const char *ident = strstr(lua_ident, "Lua ");
    char release[16] = "library";
    int length = 0;
    if (ident != NULL) sscanf(ident, "Lua %*d.%*d.%*d%n", &length);
    if (length > 0 && length < (int)sizeof release) {
      memcpy(release, ident, (size_t)length);
      release[length] = '\0';
    }
    lua_pop(L, 1);
    lua_pushfstring(L, "%s: not loaded: the bytecode checks for the bugs of Lua 5.4.4 cannot run on the linked %s (%s)",
                    name, release, reason);
    return LUA_ERRSYNTAX;
  }
  if (!repairs_needed) return LUA_OK;
  repair_state s = {0};
  size_t size = check_dump(L, &s);
  int status = LUA_OK;
  if (s.bad_line != 0) {
    lua_Debug ar;
    lua_pushvalue(L, -1);
    lua_getinfo(L, ">S", &ar);
    lua_pop(L, 1);
    lua_pushfstring(L,
                    "%s:%d: Lua 5.4.4 compiles this bitwise operation wrongly (a constant left operand in a "
                    "function with more than 255 constants; fixed in later releases): put the constant on the "
                    "right or in a local variable, or move the constants into another function",
                    ar.short_src, (int)s.bad_line);
    lua_remove(L, -2);
    status = LUA_ERRSYNTAX;
  } else if (s.failed) {
    lua_pop(L, 1);
    lua_pushliteral(L, "not enough memory to check the compiled chunk");
    status = LUA_ERRMEM;
  } else if (s.unreadable) {
    lua_pop(L, 1);
    lua_pushfstring(L, "%s: not loaded: its compiled form is not one the bytecode checks can read", name);
    status = LUA_ERRSYNTAX;
  } else if (s.changed) {
    status = luaL_loadbufferx(L, (const char *)s.dump, size, name, "b");
    lua_remove(L, -2); // the repaired function, or the error, in place of the original
  }
  free(s.dump);
  return status;
}
