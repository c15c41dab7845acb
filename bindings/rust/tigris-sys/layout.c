/* Prints the C layout of every struct of tigris.h as Rust constants (tigris-sys build.rs).
 * tests/layout.rs asserts the #[repr(C)] Rust structs have the same sizes and offsets. */
#include <stddef.h>
#include <stdio.h>

#include "tigris.h"

#define SIZE(T) printf("pub const SIZEOF_%s: usize = %zu;\n", #T, sizeof(T))
#define CONST(C) printf("pub const %s: i32 = %d;\n", #C, (int)(C))
#define OFF(T, F) printf("pub const OFFSET_%s_%s: usize = %zu;\n", #T, #F, offsetof(T, F))

int main(void) {
  SIZE(tigris_dim_binding);
  OFF(tigris_dim_binding, name);
  OFF(tigris_dim_binding, value);
  SIZE(tigris_input_shape);
  OFF(tigris_input_shape, name);
  OFF(tigris_input_shape, rank);
  OFF(tigris_input_shape, dims);
  SIZE(tigris_load_options);
  OFF(tigris_load_options, version);
  OFF(tigris_load_options, default_dim);
  OFF(tigris_load_options, dims);
  OFF(tigris_load_options, num_dims);
  OFF(tigris_load_options, input_shapes);
  OFF(tigris_load_options, num_input_shapes);
  OFF(tigris_load_options, external_data_dir);
  SIZE(tigris_op_info);
  OFF(tigris_op_info, version);
  OFF(tigris_op_info, type);
  OFF(tigris_op_info, name);
  OFF(tigris_op_info, num_inputs);
  OFF(tigris_op_info, inputs);
  OFF(tigris_op_info, num_outputs);
  OFF(tigris_op_info, outputs);
  OFF(tigris_op_info, fused_activation);
  SIZE(tigris_tensor_info);
  OFF(tigris_tensor_info, version);
  OFF(tigris_tensor_info, name);
  OFF(tigris_tensor_info, dtype);
  OFF(tigris_tensor_info, rank);
  OFF(tigris_tensor_info, shape);
  OFF(tigris_tensor_info, is_constant);
  OFF(tigris_tensor_info, num_scales);
  OFF(tigris_tensor_info, scales);
  OFF(tigris_tensor_info, zero_points);
  OFF(tigris_tensor_info, quant_axis);
  SIZE(tigris_analyze_options);
  OFF(tigris_analyze_options, version);
  OFF(tigris_analyze_options, fast_bytes);
  OFF(tigris_analyze_options, slow_bytes);
  OFF(tigris_analyze_options, flash_bytes);
  OFF(tigris_analyze_options, layout);
  OFF(tigris_analyze_options, time_limit_seconds);
  OFF(tigris_analyze_options, progress);
  OFF(tigris_analyze_options, progress_user_data);
  OFF(tigris_analyze_options, fdt);
  OFF(tigris_analyze_options, objective);
  OFF(tigris_analyze_options, max_recompute_percent);
  SIZE(tigris_plan_options);
  OFF(tigris_plan_options, version);
  OFF(tigris_plan_options, fast_bytes);
  OFF(tigris_plan_options, slow_bytes);
  OFF(tigris_plan_options, flash_bytes);
  OFF(tigris_plan_options, xip);
  OFF(tigris_plan_options, compression);
  OFF(tigris_plan_options, layout);
  OFF(tigris_plan_options, time_limit_seconds);
  OFF(tigris_plan_options, progress);
  OFF(tigris_plan_options, progress_user_data);
  OFF(tigris_plan_options, state);
  OFF(tigris_plan_options, rules_yaml);
  OFF(tigris_plan_options, rules_source);
  OFF(tigris_plan_options, fdt);
  OFF(tigris_plan_options, objective);
  OFF(tigris_plan_options, max_recompute_percent);
  OFF(tigris_plan_options, strip_names);
  SIZE(tigris_run_io);
  OFF(tigris_run_io, version);
  OFF(tigris_run_io, dtype);
  OFF(tigris_run_io, data);
  OFF(tigris_run_io, size);
  SIZE(tigris_run_options);
  OFF(tigris_run_options, version);
  OFF(tigris_run_options, fast_bytes);
  OFF(tigris_run_options, slow_bytes);
  SIZE(tigris_run_stats);
  OFF(tigris_run_stats, version);
  OFF(tigris_run_stats, fast_arena_bytes);
  OFF(tigris_run_stats, slow_arena_bytes);
  OFF(tigris_run_stats, fast_hwm_bytes);
  OFF(tigris_run_stats, slow_hwm_bytes);
  OFF(tigris_run_stats, run_seconds);
  OFF(tigris_run_stats, runtime_status);
  OFF(tigris_run_stats, failed_op);
  OFF(tigris_run_stats, fast_untouched_beyond_hwm);
  OFF(tigris_run_stats, slow_untouched_beyond_hwm);
  OFF(tigris_run_stats, pinned_arena_bytes);
  OFF(tigris_run_stats, pinned_hwm_bytes);
  OFF(tigris_run_stats, pinned_untouched_beyond_hwm);
  /* Enums are passed as C ints; Rust declares them as c_int-sized integers. */
  printf("pub const SIZEOF_tigris_status: usize = %zu;\n", sizeof(tigris_status));
  printf("pub const SIZEOF_tigris_dtype: usize = %zu;\n", sizeof(tigris_dtype));
  printf("pub const SIZEOF_tigris_verdict: usize = %zu;\n", sizeof(tigris_verdict));
  printf("pub const SIZEOF_tigris_compression: usize = %zu;\n", sizeof(tigris_compression));
  printf("pub const SIZEOF_tigris_layout: usize = %zu;\n", sizeof(tigris_layout));
  /* Every pinned enum value and struct version, as the header defines them. */
  CONST(TIGRIS_OK);
  CONST(TIGRIS_ERR_INVALID_ARGUMENT);
  CONST(TIGRIS_ERR_IO);
  CONST(TIGRIS_ERR_EMPTY_MODEL);
  CONST(TIGRIS_ERR_NOT_ONNX);
  CONST(TIGRIS_ERR_TRUNCATED_MODEL);
  CONST(TIGRIS_ERR_INVALID_MODEL);
  CONST(TIGRIS_ERR_GRAPH_CYCLE);
  CONST(TIGRIS_ERR_DANGLING_INPUT);
  CONST(TIGRIS_ERR_UNSUPPORTED_OP);
  CONST(TIGRIS_ERR_DYNAMIC_SHAPE);
  CONST(TIGRIS_ERR_SHAPE_INFERENCE);
  CONST(TIGRIS_ERR_EXTERNAL_DATA);
  CONST(TIGRIS_ERR_UNSUPPORTED_DTYPE);
  CONST(TIGRIS_ERR_UNSUPPORTED_QUANTIZATION);
  CONST(TIGRIS_ERR_OUT_OF_MEMORY);
  CONST(TIGRIS_ERR_INTERNAL);
  CONST(TIGRIS_ERR_INVALID_BUDGET);
  CONST(TIGRIS_ERR_SLOW_BUDGET_TOO_SMALL);
  CONST(TIGRIS_ERR_FLASH_BUDGET_TOO_SMALL);
  CONST(TIGRIS_ERR_VERSION_MISMATCH);
  CONST(TIGRIS_ERR_DOES_NOT_FIT);
  CONST(TIGRIS_ERR_INVALID_PLAN);
  CONST(TIGRIS_DTYPE_UNKNOWN);
  CONST(TIGRIS_DTYPE_FLOAT32);
  CONST(TIGRIS_DTYPE_INT8);
  CONST(TIGRIS_DTYPE_UINT8);
  CONST(TIGRIS_DTYPE_INT16);
  CONST(TIGRIS_DTYPE_INT32);
  CONST(TIGRIS_DTYPE_INT64);
  CONST(TIGRIS_DTYPE_FLOAT16);
  CONST(TIGRIS_DTYPE_FLOAT64);
  CONST(TIGRIS_DTYPE_BOOL);
  CONST(TIGRIS_DTYPE_UINT16);
  CONST(TIGRIS_VERDICT_OK);
  CONST(TIGRIS_VERDICT_PARTITIONED);
  CONST(TIGRIS_VERDICT_TILED);
  CONST(TIGRIS_VERDICT_NEEDS_WORK);
  CONST(TIGRIS_COMPRESSION_NONE);
  CONST(TIGRIS_COMPRESSION_LZ4);
  CONST(TIGRIS_LAYOUT_GREEDY);
  CONST(TIGRIS_LAYOUT_EXACT);
  CONST(TIGRIS_LOAD_OPTIONS_VERSION);
  CONST(TIGRIS_OP_INFO_VERSION);
  CONST(TIGRIS_TENSOR_INFO_VERSION);
  CONST(TIGRIS_ANALYZE_OPTIONS_VERSION);
  CONST(TIGRIS_PLAN_OPTIONS_VERSION);
  CONST(TIGRIS_RUN_IO_VERSION);
  CONST(TIGRIS_RUN_OPTIONS_VERSION);
  CONST(TIGRIS_RUN_STATS_VERSION);
  printf("pub const TIGRIS_NO_SLOW_MEMORY: u64 = %llu;\n",
         (unsigned long long)TIGRIS_NO_SLOW_MEMORY);
  return 0;
}
