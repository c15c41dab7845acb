/*
 * dtype.c: names and element sizes of the plan's dtypes (tigris_runtime.h). A file of its
 * own because the reader (plan_reader.c) and the verifier (plan_verify.c) both need the
 * sizes, and the reader calls the verifier: kept in either, the two files would depend on
 * each other (tests/runtime/check_runtime_objects.py keeps runtime/ free of such circles).
 */
#include "tigris_runtime.h"

const char* tgrs_dtype_name(tgrs_dtype dtype) {
  static const char* const names[] = {"UNKNOWN", "FLOAT32", "INT8",  "INT32",
                                      "INT64",   "UINT8",   "INT16", "BOOL"};
  return (unsigned)dtype <= TGRS_DTYPE_BOOL ? names[dtype] : "?";
}

size_t tgrs_dtype_size(tgrs_dtype dtype) {
  static const size_t sizes[] = {0, 4, 1, 4, 8, 1, 2, 1};
  return (unsigned)dtype <= TGRS_DTYPE_BOOL ? sizes[dtype] : 0;
}
