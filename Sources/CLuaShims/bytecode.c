// Reading Lua 5.4 binary chunks (bytecode.h).
#include "bytecode.h"

#include <stdlib.h>
#include <string.h>

#include "CLuaShims.h"

_Static_assert(sizeof(lua_Integer) == 8 && sizeof(lua_Number) == 8, "the dump layout read here");

int waymark_dump_header_is_expected(const unsigned char *dump, size_t size) {
  unsigned char expected[DUMP_HEADER_SIZE] = {0x1B, 'L', 'u', 'a', 0x54, 0, 0x19, 0x93, '\r', '\n', 0x1A, '\n', 4, 8, 8};
  lua_Integer check_integer = 0x5678;
  lua_Number check_number = 370.5;
  memcpy(expected + 15, &check_integer, 8);
  memcpy(expected + 23, &check_number, 8);
  return size >= DUMP_HEADER_SIZE && memcmp(dump, expected, DUMP_HEADER_SIZE) == 0;
}

/// Constant tags in a dump (lobject.h variants).
enum { TAG_NIL = 0, TAG_FALSE = 1, TAG_TRUE = 17, TAG_INT = 3, TAG_FLOAT = 19, TAG_SHORT = 4, TAG_LONG = 20 };

void buffer_append(byte_buffer *b, const void *bytes, size_t n) {
  if (b->failed) return;
  if (n > b->capacity - b->size) {
    size_t capacity = b->capacity ? b->capacity : 4096;
    while (n > capacity - b->size) {
      if (capacity > (size_t)-1 / 2) {
        b->failed = 1;
        return;
      }
      capacity *= 2;
    }
    unsigned char *data = realloc(b->data, capacity);
    if (data == NULL) {
      b->failed = 1;
      return;
    }
    b->data = data;
    b->capacity = capacity;
  }
  if (n > 0) memcpy(b->data + b->size, bytes, n);
  b->size += n;
}

size_t reader_size(byte_reader *r) {
  size_t x = 0;
  for (int i = 0; i < 10; i++) {
    if (r->at >= r->end) break;
    unsigned b = *r->at++;
    x = (x << 7) | (b & 0x7F);
    if (b & 0x80) return x;
  }
  r->ok = 0;
  return 0;
}

const unsigned char *reader_bytes(byte_reader *r, size_t n) {
  if (!r->ok || n > (size_t)(r->end - r->at)) {
    r->ok = 0;
    r->at = r->end;
    return NULL;
  }
  const unsigned char *start = r->at;
  r->at += n;
  return start;
}

static void skip_string(byte_reader *r) {
  size_t n = reader_size(r);
  if (n > 0) reader_bytes(r, n - 1);
}

static void skip_constant(byte_reader *r) {
  const unsigned char *tag = reader_bytes(r, 1);
  if (tag == NULL) return;
  switch (*tag) {
  case TAG_NIL: case TAG_FALSE: case TAG_TRUE: break;
  case TAG_INT: case TAG_FLOAT: reader_bytes(r, 8); break;
  case TAG_SHORT: case TAG_LONG: skip_string(r); break;
  default: r->ok = 0;
  }
}

int read_function(byte_reader *r, dumped_function *f, int depth) {
  if (depth > 250) return 0; // deeper than the parser allows
  skip_string(r); // source
  f->line_defined = (long)reader_size(r);
  (void)reader_size(r); // last line defined
  const unsigned char *sizes = reader_bytes(r, 3); // parameters, vararg flag, stack size
  if (sizes == NULL) return 0;
  f->code_count = reader_size(r);
  if (f->code_count > (size_t)(r->end - r->at) / 4) return 0;
  f->code = reader_bytes(r, 4 * f->code_count);
  f->constant_count = reader_size(r);
  for (size_t k = 0; k < f->constant_count && r->ok; k++) skip_constant(r);
  size_t upvalues = reader_size(r);
  if (upvalues > (size_t)(r->end - r->at) / 3) return 0;
  reader_bytes(r, 3 * upvalues);
  f->proto_count = reader_size(r);
  f->protos = r->at;
  for (size_t p = 0; p < f->proto_count && r->ok; p++) {
    dumped_function nested;
    if (!read_function(r, &nested, depth + 1)) return 0;
  }
  f->line_count = reader_size(r);
  f->line_deltas = (const signed char *)reader_bytes(r, f->line_count);
  f->absolute_count = reader_size(r);
  f->absolute = r->at;
  for (size_t i = 0; i < f->absolute_count && r->ok; i++) {
    reader_size(r);
    reader_size(r);
  }
  f->local_count = reader_size(r);
  f->locals = r->at;
  for (size_t i = 0; i < f->local_count && r->ok; i++) {
    skip_string(r);
    reader_size(r);
    reader_size(r);
  }
  size_t names = reader_size(r);
  for (size_t i = 0; i < names && r->ok; i++) skip_string(r);
  f->end = r->at;
  return r->ok && (f->line_count == 0 || f->line_count == f->code_count);
}

uint32_t code_at(const dumped_function *f, size_t pc) {
  uint32_t i;
  memcpy(&i, f->code + 4 * pc, 4);
  return i;
}

void decode_lines(const dumped_function *f, long *lines) {
  byte_reader absolute = {f->absolute, f->end, 1};
  size_t seen = 0;
  size_t next_pc = f->absolute_count > 0 ? reader_size(&absolute) : (size_t)-1;
  long line = f->line_defined;
  for (size_t pc = 0; pc < f->line_count; pc++) {
    if (f->line_deltas[pc] == -0x80 && pc == next_pc) {
      line = (long)reader_size(&absolute);
      next_pc = ++seen < f->absolute_count ? reader_size(&absolute) : (size_t)-1;
    } else {
      line += f->line_deltas[pc];
    }
    lines[pc] = line;
  }
}
