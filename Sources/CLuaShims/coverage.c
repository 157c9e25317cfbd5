// Line coverage of Lua code, for `waymark test --coverage`: while it is on, every state of
// the process records, for each file-backed chunk ("@path"), how often each line ran and
// which lines hold code (the active lines of every function that was called). The hook
// that records is the per-call hook of instructions.c; with coverage off nothing is armed.
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "CLuaShims.h"
#include "internal.h"

_Atomic int waymark_coverage_on = 0;

/// What is known of one file's lines, indexed by line number.
typedef struct {
  char *name;
  int lines;          // capacity of the arrays
  uint64_t *hits;     // how often each line ran
  unsigned char *kind; // 0: unknown; 1: holds code; 2: inside a called function, no code
  unsigned char *seen; // 1: the function defined on this line has been analysed
} covered_file;

static pthread_mutex_t coverage_mutex = PTHREAD_MUTEX_INITIALIZER;
static covered_file *files = NULL;
static int file_count = 0, file_capacity = 0;

static int grow(covered_file *file, int line) {
  if (line < file->lines) return 1;
  int lines = file->lines == 0 ? 64 : file->lines;
  while (lines <= line) lines *= 2;
  uint64_t *hits = realloc(file->hits, (size_t)lines * sizeof *hits);
  if (hits == NULL) return 0;
  file->hits = hits;
  unsigned char *kind = realloc(file->kind, (size_t)lines);
  if (kind == NULL) return 0;
  file->kind = kind;
  unsigned char *seen = realloc(file->seen, (size_t)lines);
  if (seen == NULL) return 0;
  file->seen = seen;
  memset(file->hits + file->lines, 0, (size_t)(lines - file->lines) * sizeof *hits);
  memset(file->kind + file->lines, 0, (size_t)(lines - file->lines));
  memset(file->seen + file->lines, 0, (size_t)(lines - file->lines));
  file->lines = lines;
  return 1;
}

/// The file named `source` (without its '@'), added when new; NULL when out of memory.
static covered_file *file_named(const char *source) {
  for (int i = file_count - 1; i >= 0; i--) {
    if (strcmp(files[i].name, source) == 0) return &files[i];
  }
  if (file_count == file_capacity) {
    int capacity = file_capacity == 0 ? 16 : file_capacity * 2;
    covered_file *grown = realloc(files, (size_t)capacity * sizeof *grown);
    if (grown == NULL) return NULL;
    files = grown;
    file_capacity = capacity;
  }
  covered_file *file = &files[file_count];
  memset(file, 0, sizeof *file);
  file->name = strdup(source);
  if (file->name == NULL) return NULL;
  file_count++;
  return file;
}

void waymark_coverage_record(lua_State *L, lua_Debug *ar) {
  if (ar->event != LUA_HOOKLINE && ar->event != LUA_HOOKCALL && ar->event != LUA_HOOKTAILCALL) return;
  if (!lua_getinfo(L, "S", ar) || ar->source == NULL || ar->source[0] != '@') return;
  pthread_mutex_lock(&coverage_mutex);
  covered_file *file = file_named(ar->source + 1);
  if (file != NULL && ar->event == LUA_HOOKLINE) {
    if (ar->currentline > 0 && grow(file, ar->currentline)) file->hits[ar->currentline]++;
  } else if (file != NULL && grow(file, ar->linedefined > ar->lastlinedefined ? ar->linedefined : ar->lastlinedefined) &&
             !file->seen[ar->linedefined]) {
    // First call of a function defined at this line: its lines are known from here.
    file->seen[ar->linedefined] = 1;
    if (ar->linedefined > 0) {
      for (int line = ar->linedefined; line <= ar->lastlinedefined; line++) {
        if (file->kind[line] == 0) file->kind[line] = 2;
      }
    }
    pthread_mutex_unlock(&coverage_mutex); // lua_getinfo allocates: not under the lock
    if (!lua_getinfo(L, "L", ar)) return;
    pthread_mutex_lock(&coverage_mutex);
    lua_pushnil(L);
    while (lua_next(L, -2) != 0) {
      lua_Integer line = lua_tointeger(L, -2);
      if (line > 0 && line < 1 << 24 && grow(file, (int)line)) file->kind[line] = 1;
      lua_pop(L, 1);
    }
    lua_pop(L, 1);
  }
  pthread_mutex_unlock(&coverage_mutex);
}

void waymark_coverage_start(void) {
  waymark_coverage_reset();
  atomic_store(&waymark_coverage_on, 1);
}

void waymark_coverage_stop(void) { atomic_store(&waymark_coverage_on, 0); }

void waymark_coverage_reset(void) {
  pthread_mutex_lock(&coverage_mutex);
  for (int i = 0; i < file_count; i++) {
    free(files[i].name);
    free(files[i].hits);
    free(files[i].kind);
    free(files[i].seen);
  }
  free(files);
  files = NULL;
  file_count = file_capacity = 0;
  pthread_mutex_unlock(&coverage_mutex);
}

int waymark_coverage_file_count(void) { return file_count; }
const char *waymark_coverage_file_name(int file) { return files[file].name; }
int waymark_coverage_line_count(int file) { return files[file].lines; }
uint64_t waymark_coverage_hits(int file, int line) { return files[file].hits[line]; }
int waymark_coverage_kind(int file, int line) { return files[file].kind[line]; }
