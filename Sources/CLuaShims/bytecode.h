#ifndef WAYMARK_BYTECODE_H
#define WAYMARK_BYTECODE_H
// Reading Lua 5.4 binary chunks, the format lua_dump writes (ldump.c): what chunk_repair.c
// needs to inspect the functions a text chunk compiled to, and patch an operand in place.
// Nothing here is trusted blindly: chunk_repair.c uses it only after checking the linked
// release, the dump's header and these opcode numbers against a probe chunk compiled by the
// linked library.
#include <stddef.h>
#include <stdint.h>

// Opcodes of Lua 5.4.4 (lopcodes.h order): those the repairs look at, and those of the
// probe chunk that verifies the numbering (chunk_repair.c).
enum {
  OP_MOVE = 0,
  OP_LOADI = 1,
  OP_LOADF = 2,
  OP_LOADK = 3,
  OP_LOADKX = 4,
  OP_LOADFALSE = 5,
  OP_LFALSESKIP = 6,
  OP_LOADTRUE = 7,
  OP_LOADNIL = 8,
  OP_BAND = 41,
  OP_BOR = 42,
  OP_BXOR = 43,
  OP_SHL = 44,
  OP_SHR = 45,
  OP_MMBIN = 46,
  OP_CLOSE = 54,
  OP_JMP = 56,
  OP_EQ = 57,
  OP_TESTSET = 67,
  OP_RETURN = 70,
  OP_FORLOOP = 73,
  OP_FORPREP = 74,
  OP_TFORPREP = 75,
  OP_TFORCALL = 76,
  OP_TFORLOOP = 77,
  OP_CLOSURE = 79,
  OP_VARARG = 80,
  OP_VARARGPREP = 81,
};

/// Bytes of a dump's header: signature, version, format, check data, sizes, check numbers.
enum { DUMP_HEADER_SIZE = 31 };

static inline unsigned opcode(uint32_t i) { return i & 0x7F; }
static inline unsigned field_a(uint32_t i) { return (i >> 7) & 0xFF; }
static inline unsigned field_b(uint32_t i) { return (i >> 16) & 0xFF; }
static inline unsigned field_c(uint32_t i) { return (i >> 24) & 0xFF; }
static inline long field_sj(uint32_t i) { return (long)(i >> 7) - ((1L << 24) - 1); }
static inline uint32_t with_a(uint32_t i, unsigned a) { return (i & ~(0xFFu << 7)) | (a << 7); }

/// A growable byte array on the C heap; `failed` once an allocation failed.
typedef struct {
  unsigned char *data;
  size_t size, capacity;
  int failed;
} byte_buffer;

void buffer_append(byte_buffer *b, const void *bytes, size_t n);

/// A cursor over a dump; `ok` turns 0 at the first malformed or truncated read.
typedef struct {
  const unsigned char *at, *end;
  int ok;
} byte_reader;

size_t reader_size(byte_reader *r);
/// The next n bytes (NULL, and not ok, if fewer remain).
const unsigned char *reader_bytes(byte_reader *r, size_t n);

/// One function of a dump, as positions in it (its nested functions are skipped over).
typedef struct {
  long line_defined;
  size_t code_count;
  const unsigned char *code;
  size_t constant_count;
  size_t proto_count;
  const unsigned char *protos;               // the nested functions, in order
  size_t line_count;
  const signed char *line_deltas;
  size_t absolute_count;
  const unsigned char *absolute;             // (pc, line) pairs
  size_t local_count;
  const unsigned char *locals;               // (name, startpc, endpc) records
  const unsigned char *end;
} dumped_function;

/// Reads the function at r into f and moves r past it. Returns 0 for a malformed dump.
int read_function(byte_reader *r, dumped_function *f, int depth);

/// Instruction pc of f.
uint32_t code_at(const dumped_function *f, size_t pc);
/// The line of every instruction of f (line_count of them) into lines[].
void decode_lines(const dumped_function *f, long *lines);

#endif
