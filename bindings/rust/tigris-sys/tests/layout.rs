//! The #[repr(C)] structs of tigris-sys against the C compiler's layout of tigris.h: the
//! expected numbers are printed by layout.c, compiled by build.rs against the real header.
#![allow(non_upper_case_globals)]
use std::mem::{offset_of, size_of};
use tigris_sys::*;

mod c {
    include!(concat!(env!("OUT_DIR"), "/layout.rs"));
}

macro_rules! check_size {
    ($t:ident) => {
        assert_eq!(
            size_of::<$t>(),
            c_size(stringify!($t)),
            "sizeof({})",
            stringify!($t)
        )
    };
}

fn c_size(name: &str) -> usize {
    match name {
        "tigris_dim_binding" => c::SIZEOF_tigris_dim_binding,
        "tigris_input_shape" => c::SIZEOF_tigris_input_shape,
        "tigris_load_options" => c::SIZEOF_tigris_load_options,
        "tigris_op_info" => c::SIZEOF_tigris_op_info,
        "tigris_tensor_info" => c::SIZEOF_tigris_tensor_info,
        "tigris_analyze_options" => c::SIZEOF_tigris_analyze_options,
        "tigris_plan_options" => c::SIZEOF_tigris_plan_options,
        "tigris_run_io" => c::SIZEOF_tigris_run_io,
        "tigris_run_options" => c::SIZEOF_tigris_run_options,
        "tigris_run_stats" => c::SIZEOF_tigris_run_stats,
        _ => unreachable!("{name}"),
    }
}

#[test]
fn struct_sizes_match_c() {
    check_size!(tigris_dim_binding);
    check_size!(tigris_input_shape);
    check_size!(tigris_load_options);
    check_size!(tigris_op_info);
    check_size!(tigris_tensor_info);
    check_size!(tigris_analyze_options);
    check_size!(tigris_plan_options);
    check_size!(tigris_run_io);
    check_size!(tigris_run_options);
    check_size!(tigris_run_stats);
}

#[test]
fn enum_sizes_match_c() {
    assert_eq!(size_of::<tigris_status>(), c::SIZEOF_tigris_status);
    assert_eq!(size_of::<tigris_dtype>(), c::SIZEOF_tigris_dtype);
    assert_eq!(size_of::<tigris_verdict>(), c::SIZEOF_tigris_verdict);
    assert_eq!(
        size_of::<tigris_compression>(),
        c::SIZEOF_tigris_compression
    );
    assert_eq!(size_of::<tigris_layout>(), c::SIZEOF_tigris_layout);
}

#[test]
fn field_offsets_match_c() {
    assert_eq!(
        offset_of!(tigris_dim_binding, name),
        c::OFFSET_tigris_dim_binding_name
    );
    assert_eq!(
        offset_of!(tigris_dim_binding, value),
        c::OFFSET_tigris_dim_binding_value
    );
    assert_eq!(
        offset_of!(tigris_input_shape, name),
        c::OFFSET_tigris_input_shape_name
    );
    assert_eq!(
        offset_of!(tigris_input_shape, rank),
        c::OFFSET_tigris_input_shape_rank
    );
    assert_eq!(
        offset_of!(tigris_input_shape, dims),
        c::OFFSET_tigris_input_shape_dims
    );
    assert_eq!(
        offset_of!(tigris_load_options, version),
        c::OFFSET_tigris_load_options_version
    );
    assert_eq!(
        offset_of!(tigris_load_options, default_dim),
        c::OFFSET_tigris_load_options_default_dim
    );
    assert_eq!(
        offset_of!(tigris_load_options, dims),
        c::OFFSET_tigris_load_options_dims
    );
    assert_eq!(
        offset_of!(tigris_load_options, num_dims),
        c::OFFSET_tigris_load_options_num_dims
    );
    assert_eq!(
        offset_of!(tigris_load_options, input_shapes),
        c::OFFSET_tigris_load_options_input_shapes
    );
    assert_eq!(
        offset_of!(tigris_load_options, num_input_shapes),
        c::OFFSET_tigris_load_options_num_input_shapes
    );
    assert_eq!(
        offset_of!(tigris_load_options, external_data_dir),
        c::OFFSET_tigris_load_options_external_data_dir
    );
    assert_eq!(
        offset_of!(tigris_op_info, version),
        c::OFFSET_tigris_op_info_version
    );
    assert_eq!(
        offset_of!(tigris_op_info, type_),
        c::OFFSET_tigris_op_info_type
    );
    assert_eq!(
        offset_of!(tigris_op_info, name),
        c::OFFSET_tigris_op_info_name
    );
    assert_eq!(
        offset_of!(tigris_op_info, num_inputs),
        c::OFFSET_tigris_op_info_num_inputs
    );
    assert_eq!(
        offset_of!(tigris_op_info, inputs),
        c::OFFSET_tigris_op_info_inputs
    );
    assert_eq!(
        offset_of!(tigris_op_info, num_outputs),
        c::OFFSET_tigris_op_info_num_outputs
    );
    assert_eq!(
        offset_of!(tigris_op_info, outputs),
        c::OFFSET_tigris_op_info_outputs
    );
    assert_eq!(
        offset_of!(tigris_op_info, fused_activation),
        c::OFFSET_tigris_op_info_fused_activation
    );
    assert_eq!(
        offset_of!(tigris_tensor_info, version),
        c::OFFSET_tigris_tensor_info_version
    );
    assert_eq!(
        offset_of!(tigris_tensor_info, name),
        c::OFFSET_tigris_tensor_info_name
    );
    assert_eq!(
        offset_of!(tigris_tensor_info, dtype),
        c::OFFSET_tigris_tensor_info_dtype
    );
    assert_eq!(
        offset_of!(tigris_tensor_info, rank),
        c::OFFSET_tigris_tensor_info_rank
    );
    assert_eq!(
        offset_of!(tigris_tensor_info, shape),
        c::OFFSET_tigris_tensor_info_shape
    );
    assert_eq!(
        offset_of!(tigris_tensor_info, is_constant),
        c::OFFSET_tigris_tensor_info_is_constant
    );
    assert_eq!(
        offset_of!(tigris_tensor_info, num_scales),
        c::OFFSET_tigris_tensor_info_num_scales
    );
    assert_eq!(
        offset_of!(tigris_tensor_info, scales),
        c::OFFSET_tigris_tensor_info_scales
    );
    assert_eq!(
        offset_of!(tigris_tensor_info, zero_points),
        c::OFFSET_tigris_tensor_info_zero_points
    );
    assert_eq!(
        offset_of!(tigris_tensor_info, quant_axis),
        c::OFFSET_tigris_tensor_info_quant_axis
    );
    assert_eq!(
        offset_of!(tigris_analyze_options, version),
        c::OFFSET_tigris_analyze_options_version
    );
    assert_eq!(
        offset_of!(tigris_analyze_options, fast_bytes),
        c::OFFSET_tigris_analyze_options_fast_bytes
    );
    assert_eq!(
        offset_of!(tigris_analyze_options, slow_bytes),
        c::OFFSET_tigris_analyze_options_slow_bytes
    );
    assert_eq!(
        offset_of!(tigris_analyze_options, flash_bytes),
        c::OFFSET_tigris_analyze_options_flash_bytes
    );
    assert_eq!(
        offset_of!(tigris_plan_options, version),
        c::OFFSET_tigris_plan_options_version
    );
    assert_eq!(
        offset_of!(tigris_plan_options, fast_bytes),
        c::OFFSET_tigris_plan_options_fast_bytes
    );
    assert_eq!(
        offset_of!(tigris_plan_options, slow_bytes),
        c::OFFSET_tigris_plan_options_slow_bytes
    );
    assert_eq!(
        offset_of!(tigris_plan_options, flash_bytes),
        c::OFFSET_tigris_plan_options_flash_bytes
    );
    assert_eq!(
        offset_of!(tigris_plan_options, xip),
        c::OFFSET_tigris_plan_options_xip
    );
    assert_eq!(
        offset_of!(tigris_plan_options, compression),
        c::OFFSET_tigris_plan_options_compression
    );
    assert_eq!(
        offset_of!(tigris_analyze_options, layout),
        c::OFFSET_tigris_analyze_options_layout
    );
    assert_eq!(
        offset_of!(tigris_analyze_options, time_limit_seconds),
        c::OFFSET_tigris_analyze_options_time_limit_seconds
    );
    assert_eq!(
        offset_of!(tigris_analyze_options, progress),
        c::OFFSET_tigris_analyze_options_progress
    );
    assert_eq!(
        offset_of!(tigris_analyze_options, progress_user_data),
        c::OFFSET_tigris_analyze_options_progress_user_data
    );
    assert_eq!(
        offset_of!(tigris_analyze_options, fdt),
        c::OFFSET_tigris_analyze_options_fdt
    );
    assert_eq!(
        offset_of!(tigris_analyze_options, objective),
        c::OFFSET_tigris_analyze_options_objective
    );
    assert_eq!(
        offset_of!(tigris_analyze_options, max_recompute_percent),
        c::OFFSET_tigris_analyze_options_max_recompute_percent
    );
    assert_eq!(
        offset_of!(tigris_plan_options, layout),
        c::OFFSET_tigris_plan_options_layout
    );
    assert_eq!(
        offset_of!(tigris_plan_options, time_limit_seconds),
        c::OFFSET_tigris_plan_options_time_limit_seconds
    );
    assert_eq!(
        offset_of!(tigris_plan_options, progress),
        c::OFFSET_tigris_plan_options_progress
    );
    assert_eq!(
        offset_of!(tigris_plan_options, progress_user_data),
        c::OFFSET_tigris_plan_options_progress_user_data
    );
    assert_eq!(
        offset_of!(tigris_plan_options, state),
        c::OFFSET_tigris_plan_options_state
    );
    assert_eq!(
        offset_of!(tigris_plan_options, rules_yaml),
        c::OFFSET_tigris_plan_options_rules_yaml
    );
    assert_eq!(
        offset_of!(tigris_plan_options, rules_source),
        c::OFFSET_tigris_plan_options_rules_source
    );
    assert_eq!(
        offset_of!(tigris_plan_options, fdt),
        c::OFFSET_tigris_plan_options_fdt
    );
    assert_eq!(
        offset_of!(tigris_plan_options, objective),
        c::OFFSET_tigris_plan_options_objective
    );
    assert_eq!(
        offset_of!(tigris_plan_options, max_recompute_percent),
        c::OFFSET_tigris_plan_options_max_recompute_percent
    );
    assert_eq!(
        offset_of!(tigris_plan_options, strip_names),
        c::OFFSET_tigris_plan_options_strip_names
    );
    assert_eq!(
        offset_of!(tigris_run_io, version),
        c::OFFSET_tigris_run_io_version
    );
    assert_eq!(
        offset_of!(tigris_run_io, dtype),
        c::OFFSET_tigris_run_io_dtype
    );
    assert_eq!(
        offset_of!(tigris_run_io, data),
        c::OFFSET_tigris_run_io_data
    );
    assert_eq!(
        offset_of!(tigris_run_io, size),
        c::OFFSET_tigris_run_io_size
    );
    assert_eq!(
        offset_of!(tigris_run_options, version),
        c::OFFSET_tigris_run_options_version
    );
    assert_eq!(
        offset_of!(tigris_run_options, fast_bytes),
        c::OFFSET_tigris_run_options_fast_bytes
    );
    assert_eq!(
        offset_of!(tigris_run_options, slow_bytes),
        c::OFFSET_tigris_run_options_slow_bytes
    );
    assert_eq!(
        offset_of!(tigris_run_stats, version),
        c::OFFSET_tigris_run_stats_version
    );
    assert_eq!(
        offset_of!(tigris_run_stats, fast_arena_bytes),
        c::OFFSET_tigris_run_stats_fast_arena_bytes
    );
    assert_eq!(
        offset_of!(tigris_run_stats, slow_arena_bytes),
        c::OFFSET_tigris_run_stats_slow_arena_bytes
    );
    assert_eq!(
        offset_of!(tigris_run_stats, fast_hwm_bytes),
        c::OFFSET_tigris_run_stats_fast_hwm_bytes
    );
    assert_eq!(
        offset_of!(tigris_run_stats, slow_hwm_bytes),
        c::OFFSET_tigris_run_stats_slow_hwm_bytes
    );
    assert_eq!(
        offset_of!(tigris_run_stats, run_seconds),
        c::OFFSET_tigris_run_stats_run_seconds
    );
    assert_eq!(
        offset_of!(tigris_run_stats, runtime_status),
        c::OFFSET_tigris_run_stats_runtime_status
    );
    assert_eq!(
        offset_of!(tigris_run_stats, failed_op),
        c::OFFSET_tigris_run_stats_failed_op
    );
    assert_eq!(
        offset_of!(tigris_run_stats, fast_untouched_beyond_hwm),
        c::OFFSET_tigris_run_stats_fast_untouched_beyond_hwm
    );
    assert_eq!(
        offset_of!(tigris_run_stats, slow_untouched_beyond_hwm),
        c::OFFSET_tigris_run_stats_slow_untouched_beyond_hwm
    );
    assert_eq!(
        offset_of!(tigris_run_stats, pinned_arena_bytes),
        c::OFFSET_tigris_run_stats_pinned_arena_bytes
    );
    assert_eq!(
        offset_of!(tigris_run_stats, pinned_hwm_bytes),
        c::OFFSET_tigris_run_stats_pinned_hwm_bytes
    );
    assert_eq!(
        offset_of!(tigris_run_stats, pinned_untouched_beyond_hwm),
        c::OFFSET_tigris_run_stats_pinned_untouched_beyond_hwm
    );
}

#[test]
fn pinned_values_match_c() {
    assert_eq!(TIGRIS_OK, c::TIGRIS_OK, "TIGRIS_OK");
    assert_eq!(
        TIGRIS_ERR_INVALID_ARGUMENT,
        c::TIGRIS_ERR_INVALID_ARGUMENT,
        "TIGRIS_ERR_INVALID_ARGUMENT"
    );
    assert_eq!(TIGRIS_ERR_IO, c::TIGRIS_ERR_IO, "TIGRIS_ERR_IO");
    assert_eq!(
        TIGRIS_ERR_EMPTY_MODEL,
        c::TIGRIS_ERR_EMPTY_MODEL,
        "TIGRIS_ERR_EMPTY_MODEL"
    );
    assert_eq!(
        TIGRIS_ERR_NOT_ONNX,
        c::TIGRIS_ERR_NOT_ONNX,
        "TIGRIS_ERR_NOT_ONNX"
    );
    assert_eq!(
        TIGRIS_ERR_TRUNCATED_MODEL,
        c::TIGRIS_ERR_TRUNCATED_MODEL,
        "TIGRIS_ERR_TRUNCATED_MODEL"
    );
    assert_eq!(
        TIGRIS_ERR_INVALID_MODEL,
        c::TIGRIS_ERR_INVALID_MODEL,
        "TIGRIS_ERR_INVALID_MODEL"
    );
    assert_eq!(
        TIGRIS_ERR_GRAPH_CYCLE,
        c::TIGRIS_ERR_GRAPH_CYCLE,
        "TIGRIS_ERR_GRAPH_CYCLE"
    );
    assert_eq!(
        TIGRIS_ERR_DANGLING_INPUT,
        c::TIGRIS_ERR_DANGLING_INPUT,
        "TIGRIS_ERR_DANGLING_INPUT"
    );
    assert_eq!(
        TIGRIS_ERR_UNSUPPORTED_OP,
        c::TIGRIS_ERR_UNSUPPORTED_OP,
        "TIGRIS_ERR_UNSUPPORTED_OP"
    );
    assert_eq!(
        TIGRIS_ERR_DYNAMIC_SHAPE,
        c::TIGRIS_ERR_DYNAMIC_SHAPE,
        "TIGRIS_ERR_DYNAMIC_SHAPE"
    );
    assert_eq!(
        TIGRIS_ERR_SHAPE_INFERENCE,
        c::TIGRIS_ERR_SHAPE_INFERENCE,
        "TIGRIS_ERR_SHAPE_INFERENCE"
    );
    assert_eq!(
        TIGRIS_ERR_EXTERNAL_DATA,
        c::TIGRIS_ERR_EXTERNAL_DATA,
        "TIGRIS_ERR_EXTERNAL_DATA"
    );
    assert_eq!(
        TIGRIS_ERR_UNSUPPORTED_DTYPE,
        c::TIGRIS_ERR_UNSUPPORTED_DTYPE,
        "TIGRIS_ERR_UNSUPPORTED_DTYPE"
    );
    assert_eq!(
        TIGRIS_ERR_UNSUPPORTED_QUANTIZATION,
        c::TIGRIS_ERR_UNSUPPORTED_QUANTIZATION,
        "TIGRIS_ERR_UNSUPPORTED_QUANTIZATION"
    );
    assert_eq!(
        TIGRIS_ERR_OUT_OF_MEMORY,
        c::TIGRIS_ERR_OUT_OF_MEMORY,
        "TIGRIS_ERR_OUT_OF_MEMORY"
    );
    assert_eq!(
        TIGRIS_ERR_INTERNAL,
        c::TIGRIS_ERR_INTERNAL,
        "TIGRIS_ERR_INTERNAL"
    );
    assert_eq!(
        TIGRIS_ERR_INVALID_BUDGET,
        c::TIGRIS_ERR_INVALID_BUDGET,
        "TIGRIS_ERR_INVALID_BUDGET"
    );
    assert_eq!(
        TIGRIS_ERR_SLOW_BUDGET_TOO_SMALL,
        c::TIGRIS_ERR_SLOW_BUDGET_TOO_SMALL,
        "TIGRIS_ERR_SLOW_BUDGET_TOO_SMALL"
    );
    assert_eq!(
        TIGRIS_ERR_FLASH_BUDGET_TOO_SMALL,
        c::TIGRIS_ERR_FLASH_BUDGET_TOO_SMALL,
        "TIGRIS_ERR_FLASH_BUDGET_TOO_SMALL"
    );
    assert_eq!(
        TIGRIS_ERR_VERSION_MISMATCH,
        c::TIGRIS_ERR_VERSION_MISMATCH,
        "TIGRIS_ERR_VERSION_MISMATCH"
    );
    assert_eq!(
        TIGRIS_ERR_DOES_NOT_FIT,
        c::TIGRIS_ERR_DOES_NOT_FIT,
        "TIGRIS_ERR_DOES_NOT_FIT"
    );
    assert_eq!(
        TIGRIS_ERR_INVALID_PLAN,
        c::TIGRIS_ERR_INVALID_PLAN,
        "TIGRIS_ERR_INVALID_PLAN"
    );
    assert_eq!(
        TIGRIS_DTYPE_UNKNOWN,
        c::TIGRIS_DTYPE_UNKNOWN,
        "TIGRIS_DTYPE_UNKNOWN"
    );
    assert_eq!(
        TIGRIS_DTYPE_FLOAT32,
        c::TIGRIS_DTYPE_FLOAT32,
        "TIGRIS_DTYPE_FLOAT32"
    );
    assert_eq!(TIGRIS_DTYPE_INT8, c::TIGRIS_DTYPE_INT8, "TIGRIS_DTYPE_INT8");
    assert_eq!(
        TIGRIS_DTYPE_UINT8,
        c::TIGRIS_DTYPE_UINT8,
        "TIGRIS_DTYPE_UINT8"
    );
    assert_eq!(
        TIGRIS_DTYPE_INT16,
        c::TIGRIS_DTYPE_INT16,
        "TIGRIS_DTYPE_INT16"
    );
    assert_eq!(
        TIGRIS_DTYPE_INT32,
        c::TIGRIS_DTYPE_INT32,
        "TIGRIS_DTYPE_INT32"
    );
    assert_eq!(
        TIGRIS_DTYPE_INT64,
        c::TIGRIS_DTYPE_INT64,
        "TIGRIS_DTYPE_INT64"
    );
    assert_eq!(
        TIGRIS_DTYPE_FLOAT16,
        c::TIGRIS_DTYPE_FLOAT16,
        "TIGRIS_DTYPE_FLOAT16"
    );
    assert_eq!(
        TIGRIS_DTYPE_FLOAT64,
        c::TIGRIS_DTYPE_FLOAT64,
        "TIGRIS_DTYPE_FLOAT64"
    );
    assert_eq!(TIGRIS_DTYPE_BOOL, c::TIGRIS_DTYPE_BOOL, "TIGRIS_DTYPE_BOOL");
    assert_eq!(
        TIGRIS_DTYPE_UINT16,
        c::TIGRIS_DTYPE_UINT16,
        "TIGRIS_DTYPE_UINT16"
    );
    assert_eq!(TIGRIS_VERDICT_OK, c::TIGRIS_VERDICT_OK, "TIGRIS_VERDICT_OK");
    assert_eq!(
        TIGRIS_VERDICT_PARTITIONED,
        c::TIGRIS_VERDICT_PARTITIONED,
        "TIGRIS_VERDICT_PARTITIONED"
    );
    assert_eq!(
        TIGRIS_VERDICT_TILED,
        c::TIGRIS_VERDICT_TILED,
        "TIGRIS_VERDICT_TILED"
    );
    assert_eq!(
        TIGRIS_VERDICT_NEEDS_WORK,
        c::TIGRIS_VERDICT_NEEDS_WORK,
        "TIGRIS_VERDICT_NEEDS_WORK"
    );
    assert_eq!(
        TIGRIS_COMPRESSION_NONE,
        c::TIGRIS_COMPRESSION_NONE,
        "TIGRIS_COMPRESSION_NONE"
    );
    assert_eq!(
        TIGRIS_COMPRESSION_LZ4,
        c::TIGRIS_COMPRESSION_LZ4,
        "TIGRIS_COMPRESSION_LZ4"
    );
    assert_eq!(
        TIGRIS_LAYOUT_GREEDY,
        c::TIGRIS_LAYOUT_GREEDY,
        "TIGRIS_LAYOUT_GREEDY"
    );
    assert_eq!(
        TIGRIS_LAYOUT_EXACT,
        c::TIGRIS_LAYOUT_EXACT,
        "TIGRIS_LAYOUT_EXACT"
    );
    assert_eq!(
        TIGRIS_NO_SLOW_MEMORY,
        c::TIGRIS_NO_SLOW_MEMORY,
        "TIGRIS_NO_SLOW_MEMORY"
    );
    assert_eq!(
        TIGRIS_LOAD_OPTIONS_VERSION,
        c::TIGRIS_LOAD_OPTIONS_VERSION,
        "TIGRIS_LOAD_OPTIONS_VERSION"
    );
    assert_eq!(
        TIGRIS_OP_INFO_VERSION,
        c::TIGRIS_OP_INFO_VERSION,
        "TIGRIS_OP_INFO_VERSION"
    );
    assert_eq!(
        TIGRIS_TENSOR_INFO_VERSION,
        c::TIGRIS_TENSOR_INFO_VERSION,
        "TIGRIS_TENSOR_INFO_VERSION"
    );
    assert_eq!(
        TIGRIS_ANALYZE_OPTIONS_VERSION,
        c::TIGRIS_ANALYZE_OPTIONS_VERSION,
        "TIGRIS_ANALYZE_OPTIONS_VERSION"
    );
    assert_eq!(
        TIGRIS_PLAN_OPTIONS_VERSION,
        c::TIGRIS_PLAN_OPTIONS_VERSION,
        "TIGRIS_PLAN_OPTIONS_VERSION"
    );
    assert_eq!(
        TIGRIS_RUN_IO_VERSION,
        c::TIGRIS_RUN_IO_VERSION,
        "TIGRIS_RUN_IO_VERSION"
    );
    assert_eq!(
        TIGRIS_RUN_OPTIONS_VERSION,
        c::TIGRIS_RUN_OPTIONS_VERSION,
        "TIGRIS_RUN_OPTIONS_VERSION"
    );
    assert_eq!(
        TIGRIS_RUN_STATS_VERSION,
        c::TIGRIS_RUN_STATS_VERSION,
        "TIGRIS_RUN_STATS_VERSION"
    );
}
