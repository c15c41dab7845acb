/* compile_and_run MODEL.onnx PLAN.tgrs OUT.bin: compiles MODEL at a 64 KiB SRAM budget
 * with weights in place, writes the plan, runs it on the host and writes the first output's
 * bytes. Uses nothing but <tigris.h>; links libtigris.so (or -ltigris from pkg-config). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tigris.h>

#include "input_pattern.h"

static int fail(const char* what) {
  fprintf(stderr, "compile_and_run: %s: %s\n", what, tigris_last_error());
  return 1;
}

int main(int argc, char** argv) {
  tigris_model* model = NULL;
  tigris_execution_plan* plan = NULL;
  tigris_plan_options options = TIGRIS_PLAN_OPTIONS_INIT;
  tigris_tensor_info in_info, out_info;
  tigris_run_io in, out;
  size_t in_count = 1, out_count = 1, i;
  float *x, *y;
  int rc;
  if (argc != 4) {
    fprintf(stderr, "usage: compile_and_run MODEL.onnx PLAN.tgrs OUT.bin\n");
    return 2;
  }
  if (tigris_version_number() != TIGRIS_VERSION_NUMBER) {
    fprintf(stderr, "header %d, library %s\n", TIGRIS_VERSION_NUMBER, tigris_version());
    return 1;
  }
  if (tigris_load(&model, argv[1], NULL) != TIGRIS_OK) return fail("load");
  options.fast_bytes = 64 * 1024;
  if (tigris_plan(&plan, model, &options) != TIGRIS_OK) return fail("plan");
  if (tigris_emit_to_file(plan, argv[2]) != TIGRIS_OK) return fail("emit");
  in_info.version = out_info.version = TIGRIS_TENSOR_INFO_VERSION;
  if (tigris_plan_input(plan, 0, &in_info) != TIGRIS_OK) return fail("input");
  if (tigris_plan_output(plan, 0, &out_info) != TIGRIS_OK) return fail("output");
  for (i = 0; i < in_info.rank; ++i) in_count *= (size_t)in_info.shape[i];
  for (i = 0; i < out_info.rank; ++i) out_count *= (size_t)out_info.shape[i];
  x = (float*)malloc(in_count * sizeof *x);
  y = (float*)malloc(out_count * sizeof *y);
  fill_input(x, in_count);
  in.version = out.version = TIGRIS_RUN_IO_VERSION;
  in.dtype = out.dtype = TIGRIS_DTYPE_FLOAT32;
  in.data = x;
  in.size = in_count * sizeof *x;
  out.data = y;
  out.size = out_count * sizeof *y;
  if (tigris_plan_run(plan, NULL, &in, 1, &out, 1, NULL) != TIGRIS_OK) return fail("run");
  rc = write_bytes(argv[3], y, out.size);
  printf("compile_and_run: tigris %s, %s -> %s [%zu floats]\n", tigris_version(), in_info.name,
         out_info.name, out_count);
  free(x);
  free(y);
  tigris_plan_free(plan);
  tigris_model_free(model);
  return rc;
}
