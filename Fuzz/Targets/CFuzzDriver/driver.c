#include "CFuzzDriver.h"

// libFuzzer's driver (compiler-rt, linked by -sanitize=fuzzer).
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

int waymark_fuzz_main(int argc, char **argv, int (*test_one_input)(const uint8_t *data, size_t size)) {
  return LLVMFuzzerRunDriver(&argc, &argv, test_one_input);
}
