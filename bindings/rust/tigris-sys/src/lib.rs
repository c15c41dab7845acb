//! Raw FFI declarations of libtigris, transcribed by hand from `include/tigris.h`
//! (no bindgen). `tests/layout.rs` checks every struct against the C compiler's layout.
//!
//! Everything here is `unsafe` to call; the `tigris` crate is the safe API. Enums of the
//! header are C `int`s on every ABI TiGrIS targets, so they are declared as `c_int`
//! aliases plus constants: a value from a newer library then stays representable.
#![allow(non_camel_case_types)]

use std::os::raw::{c_char, c_double, c_float, c_int, c_uint, c_void};

pub type tigris_status = c_int;
pub const TIGRIS_OK: tigris_status = 0;
pub const TIGRIS_ERR_INVALID_ARGUMENT: tigris_status = 1;
pub const TIGRIS_ERR_IO: tigris_status = 2;
pub const TIGRIS_ERR_EMPTY_MODEL: tigris_status = 3;
pub const TIGRIS_ERR_NOT_ONNX: tigris_status = 4;
pub const TIGRIS_ERR_TRUNCATED_MODEL: tigris_status = 5;
pub const TIGRIS_ERR_INVALID_MODEL: tigris_status = 6;
pub const TIGRIS_ERR_GRAPH_CYCLE: tigris_status = 7;
pub const TIGRIS_ERR_DANGLING_INPUT: tigris_status = 8;
pub const TIGRIS_ERR_UNSUPPORTED_OP: tigris_status = 9;
pub const TIGRIS_ERR_DYNAMIC_SHAPE: tigris_status = 10;
pub const TIGRIS_ERR_SHAPE_INFERENCE: tigris_status = 11;
pub const TIGRIS_ERR_EXTERNAL_DATA: tigris_status = 12;
pub const TIGRIS_ERR_UNSUPPORTED_DTYPE: tigris_status = 13;
pub const TIGRIS_ERR_UNSUPPORTED_QUANTIZATION: tigris_status = 14;
pub const TIGRIS_ERR_OUT_OF_MEMORY: tigris_status = 15;
pub const TIGRIS_ERR_INTERNAL: tigris_status = 16;
pub const TIGRIS_ERR_INVALID_BUDGET: tigris_status = 17;
pub const TIGRIS_ERR_SLOW_BUDGET_TOO_SMALL: tigris_status = 18;
pub const TIGRIS_ERR_FLASH_BUDGET_TOO_SMALL: tigris_status = 19;
pub const TIGRIS_ERR_VERSION_MISMATCH: tigris_status = 20;
pub const TIGRIS_ERR_DOES_NOT_FIT: tigris_status = 21;
pub const TIGRIS_ERR_INVALID_PLAN: tigris_status = 22;

pub type tigris_dtype = c_int;
pub const TIGRIS_DTYPE_UNKNOWN: tigris_dtype = 0;
pub const TIGRIS_DTYPE_FLOAT32: tigris_dtype = 1;
pub const TIGRIS_DTYPE_INT8: tigris_dtype = 2;
pub const TIGRIS_DTYPE_UINT8: tigris_dtype = 3;
pub const TIGRIS_DTYPE_INT16: tigris_dtype = 4;
pub const TIGRIS_DTYPE_INT32: tigris_dtype = 5;
pub const TIGRIS_DTYPE_INT64: tigris_dtype = 6;
pub const TIGRIS_DTYPE_FLOAT16: tigris_dtype = 7;
pub const TIGRIS_DTYPE_FLOAT64: tigris_dtype = 8;
pub const TIGRIS_DTYPE_BOOL: tigris_dtype = 9;
pub const TIGRIS_DTYPE_UINT16: tigris_dtype = 10;

pub type tigris_verdict = c_int;
pub const TIGRIS_VERDICT_OK: tigris_verdict = 0;
pub const TIGRIS_VERDICT_PARTITIONED: tigris_verdict = 1;
pub const TIGRIS_VERDICT_TILED: tigris_verdict = 2;
pub const TIGRIS_VERDICT_NEEDS_WORK: tigris_verdict = 3;

pub type tigris_compression = c_int;
pub const TIGRIS_COMPRESSION_NONE: tigris_compression = 0;
pub const TIGRIS_COMPRESSION_LZ4: tigris_compression = 1;

pub type tigris_layout = c_int;
pub const TIGRIS_LAYOUT_GREEDY: tigris_layout = 0;
pub const TIGRIS_LAYOUT_EXACT: tigris_layout = 1;

/// `slow_bytes` for a part with one RAM (`-m SIZE -m 0`): no memory besides the fast one,
/// scratch and spills share it (docs/memories.md, "One RAM").
pub const TIGRIS_NO_SLOW_MEMORY: u64 = u64::MAX;

pub type tigris_objective = c_int;
pub const TIGRIS_OBJECTIVE_NONE: tigris_objective = 0;
pub const TIGRIS_OBJECTIVE_MEMORY: tigris_objective = 1;
pub const TIGRIS_OBJECTIVE_LATENCY: tigris_objective = 2;

/// Progress lines of long work (an exact layout solve), on the calling thread.
pub type tigris_progress_fn =
    Option<unsafe extern "C" fn(message: *const c_char, user_data: *mut c_void)>;

pub const TIGRIS_LOAD_OPTIONS_VERSION: c_int = 1;
pub const TIGRIS_OP_INFO_VERSION: c_int = 1;
pub const TIGRIS_TENSOR_INFO_VERSION: c_int = 1;
pub const TIGRIS_ANALYZE_OPTIONS_VERSION: c_int = 4;
pub const TIGRIS_PLAN_OPTIONS_VERSION: c_int = 6;
pub const TIGRIS_RUN_IO_VERSION: c_int = 1;
pub const TIGRIS_RUN_OPTIONS_VERSION: c_int = 1;
pub const TIGRIS_RUN_STATS_VERSION: c_int = 2;

/// Opaque handles.
#[repr(C)]
pub struct tigris_model {
    _private: [u8; 0],
}
#[repr(C)]
pub struct tigris_analysis {
    _private: [u8; 0],
}
#[repr(C)]
pub struct tigris_execution_plan {
    _private: [u8; 0],
}

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct tigris_dim_binding {
    pub name: *const c_char,
    pub value: i64,
}

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct tigris_input_shape {
    pub name: *const c_char,
    pub rank: usize,
    pub dims: *const i64,
}

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct tigris_load_options {
    pub version: c_int,
    pub default_dim: i64,
    pub dims: *const tigris_dim_binding,
    pub num_dims: usize,
    pub input_shapes: *const tigris_input_shape,
    pub num_input_shapes: usize,
    pub external_data_dir: *const c_char,
}

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct tigris_op_info {
    pub version: c_int,
    pub type_: *const c_char,
    pub name: *const c_char,
    pub num_inputs: usize,
    pub inputs: *const i32,
    pub num_outputs: usize,
    pub outputs: *const i32,
    pub fused_activation: *const c_char,
}

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct tigris_tensor_info {
    pub version: c_int,
    pub name: *const c_char,
    pub dtype: tigris_dtype,
    pub rank: usize,
    pub shape: *const i64,
    pub is_constant: c_int,
    pub num_scales: usize,
    pub scales: *const c_float,
    pub zero_points: *const i32,
    pub quant_axis: i32,
}

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct tigris_analyze_options {
    pub version: c_int,
    pub fast_bytes: u64,
    pub slow_bytes: u64,
    pub flash_bytes: u64,
    // Since version 2.
    pub layout: tigris_layout,
    pub time_limit_seconds: f64,
    pub progress: tigris_progress_fn,
    pub progress_user_data: *mut c_void,
    // Since version 3: 1 lets the planner make the FDT paper's splits, 0 not.
    pub fdt: c_int,
    // Since version 4: search for the least memory or latency, and the recompute limit
    // in percent of the model's MACs (negative: none).
    pub objective: tigris_objective,
    pub max_recompute_percent: f64,
}

impl Default for tigris_analyze_options {
    /// Zeroes; tigris_analyze_options_init fills in the real defaults.
    fn default() -> Self {
        Self {
            version: 0,
            fast_bytes: 0,
            slow_bytes: 0,
            flash_bytes: 0,
            layout: TIGRIS_LAYOUT_GREEDY,
            time_limit_seconds: 0.0,
            progress: None,
            progress_user_data: std::ptr::null_mut(),
            fdt: 0,
            objective: TIGRIS_OBJECTIVE_NONE,
            max_recompute_percent: 0.0,
        }
    }
}

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct tigris_plan_options {
    pub version: c_int,
    pub fast_bytes: u64,
    pub slow_bytes: u64,
    pub flash_bytes: u64,
    pub xip: c_int,
    pub compression: tigris_compression,
    // Since version 2.
    pub layout: tigris_layout,
    pub time_limit_seconds: f64,
    pub progress: tigris_progress_fn,
    pub progress_user_data: *mut c_void,
    // Since version 3: "IN=OUT[,...]" persistent state pairs, or NULL.
    pub state: *const c_char,
    // Since version 3 (tigris_plan_for_target): placement rules' YAML and its name, or NULL.
    pub rules_yaml: *const c_char,
    pub rules_source: *const c_char,
    // Since version 4, as in tigris_analyze_options.
    pub fdt: c_int,
    // Since version 5, as in tigris_analyze_options (version 4).
    pub objective: tigris_objective,
    pub max_recompute_percent: f64,
    // Since version 6: nonzero leaves op and intermediate tensor names out of the plan.
    pub strip_names: c_int,
}

impl Default for tigris_plan_options {
    /// Zeroes; tigris_plan_options_init fills in the real defaults.
    fn default() -> Self {
        Self {
            version: 0,
            fast_bytes: 0,
            slow_bytes: 0,
            flash_bytes: 0,
            xip: 0,
            compression: TIGRIS_COMPRESSION_NONE,
            layout: TIGRIS_LAYOUT_GREEDY,
            time_limit_seconds: 0.0,
            progress: None,
            progress_user_data: std::ptr::null_mut(),
            state: std::ptr::null(),
            rules_yaml: std::ptr::null(),
            rules_source: std::ptr::null(),
            fdt: 0,
            objective: TIGRIS_OBJECTIVE_NONE,
            max_recompute_percent: 0.0,
            strip_names: 0,
        }
    }
}

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct tigris_run_io {
    pub version: c_int,
    pub dtype: tigris_dtype,
    pub data: *mut c_void,
    pub size: usize,
}

#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct tigris_run_options {
    pub version: c_int,
    pub fast_bytes: u64,
    pub slow_bytes: u64,
}

#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct tigris_run_stats {
    pub version: c_int,
    pub fast_arena_bytes: u64,
    pub slow_arena_bytes: u64,
    pub fast_hwm_bytes: u64,
    pub slow_hwm_bytes: u64,
    pub run_seconds: c_double,
    pub runtime_status: c_int,
    pub failed_op: i32,
    pub fast_untouched_beyond_hwm: c_int,
    pub slow_untouched_beyond_hwm: c_int,
    // Since version 2: the PINNED arena.
    pub pinned_arena_bytes: u64,
    pub pinned_hwm_bytes: u64,
    pub pinned_untouched_beyond_hwm: c_int,
}

extern "C" {
    pub fn tigris_version() -> *const c_char;
    pub fn tigris_version_number() -> c_uint;
    pub fn tigris_status_name(status: tigris_status) -> *const c_char;
    pub fn tigris_last_error() -> *const c_char;
    pub fn tigris_parse_size(out_bytes: *mut u64, text: *const c_char) -> tigris_status;

    pub fn tigris_load_options_init(
        opts: *mut tigris_load_options,
        version: c_int,
    ) -> tigris_status;
    pub fn tigris_load(
        out: *mut *mut tigris_model,
        path: *const c_char,
        options: *const tigris_load_options,
    ) -> tigris_status;
    pub fn tigris_load_from_memory(
        out: *mut *mut tigris_model,
        data: *const c_void,
        size: usize,
        options: *const tigris_load_options,
    ) -> tigris_status;
    pub fn tigris_model_free(model: *mut tigris_model);
    pub fn tigris_model_last_error(model: *const tigris_model) -> *const c_char;

    pub fn tigris_model_name(model: *const tigris_model) -> *const c_char;
    pub fn tigris_model_op_count(model: *const tigris_model) -> usize;
    pub fn tigris_model_tensor_count(model: *const tigris_model) -> usize;
    pub fn tigris_model_input_count(model: *const tigris_model) -> usize;
    pub fn tigris_model_output_count(model: *const tigris_model) -> usize;
    pub fn tigris_model_input(model: *const tigris_model, i: usize) -> i32;
    pub fn tigris_model_output(model: *const tigris_model, i: usize) -> i32;
    pub fn tigris_model_op(
        model: *const tigris_model,
        index: usize,
        info: *mut tigris_op_info,
    ) -> tigris_status;
    pub fn tigris_model_tensor(
        model: *const tigris_model,
        index: usize,
        info: *mut tigris_tensor_info,
    ) -> tigris_status;
    pub fn tigris_model_json(model: *const tigris_model) -> *const c_char;

    pub fn tigris_analyze_options_init(
        opts: *mut tigris_analyze_options,
        version: c_int,
    ) -> tigris_status;
    pub fn tigris_analyze(
        out: *mut *mut tigris_analysis,
        model: *const tigris_model,
        options: *const tigris_analyze_options,
    ) -> tigris_status;
    pub fn tigris_analysis_free(analysis: *mut tigris_analysis);
    pub fn tigris_analysis_verdict(analysis: *const tigris_analysis) -> tigris_verdict;
    // 0.3: why tigris_plan would refuse a plan whose stages fit.
    pub fn tigris_analysis_refusal_status(analysis: *const tigris_analysis) -> tigris_status;
    pub fn tigris_analysis_refusal(analysis: *const tigris_analysis) -> *const c_char;
    pub fn tigris_analysis_scheduled_peak_bytes(analysis: *const tigris_analysis) -> u64;
    pub fn tigris_analysis_naive_peak_bytes(analysis: *const tigris_analysis) -> u64;
    pub fn tigris_analysis_slow_peak_bytes(analysis: *const tigris_analysis) -> u64;
    pub fn tigris_analysis_stage_count(analysis: *const tigris_analysis) -> usize;
    pub fn tigris_analysis_tiled_stage_count(analysis: *const tigris_analysis) -> usize;
    pub fn tigris_analysis_chain_count(analysis: *const tigris_analysis) -> usize;
    pub fn tigris_analysis_macs(analysis: *const tigris_analysis) -> u64;
    pub fn tigris_analysis_recompute_macs(analysis: *const tigris_analysis) -> u64;
    pub fn tigris_analysis_slow_traffic_bytes(analysis: *const tigris_analysis) -> u64;
    pub fn tigris_analysis_json(analysis: *const tigris_analysis) -> *const c_char;
    pub fn tigris_analysis_timeline_svg(analysis: *const tigris_analysis) -> *const c_char;

    pub fn tigris_plan_options_init(
        opts: *mut tigris_plan_options,
        version: c_int,
    ) -> tigris_status;
    pub fn tigris_plan(
        out: *mut *mut tigris_execution_plan,
        model: *const tigris_model,
        options: *const tigris_plan_options,
    ) -> tigris_status;
    pub fn tigris_plan_for_target(
        out: *mut *mut tigris_execution_plan,
        model: *const tigris_model,
        options: *const tigris_plan_options,
        target_yaml: *const c_char,
        source: *const c_char,
    ) -> tigris_status;
    pub fn tigris_plan_memories_json(plan: *const tigris_execution_plan) -> *const c_char;
    pub fn tigris_plan_warnings(plan: *const tigris_execution_plan) -> *const c_char;
    pub fn tigris_plan_exploration_json(plan: *const tigris_execution_plan) -> *const c_char;
    pub fn tigris_plan_check_target(
        plan: *const c_void,
        plan_size: usize,
        target_yaml: *const c_char,
        source: *const c_char,
    ) -> tigris_status;
    pub fn tigris_plan_free(plan: *mut tigris_execution_plan);
    pub fn tigris_plan_last_error(plan: *const tigris_execution_plan) -> *const c_char;
    pub fn tigris_plan_file_bytes(plan: *const tigris_execution_plan) -> u64;
    pub fn tigris_plan_weight_bytes(plan: *const tigris_execution_plan) -> u64;
    pub fn tigris_plan_stored_weight_bytes(plan: *const tigris_execution_plan) -> u64;
    pub fn tigris_plan_fast_arena_bytes(plan: *const tigris_execution_plan) -> u64;
    pub fn tigris_plan_slow_arena_bytes(plan: *const tigris_execution_plan) -> u64;
    pub fn tigris_emit(
        out_bytes: *mut *mut c_void,
        out_size: *mut usize,
        plan: *const tigris_execution_plan,
    ) -> tigris_status;
    pub fn tigris_emit_to_file(
        plan: *const tigris_execution_plan,
        path: *const c_char,
    ) -> tigris_status;
    pub fn tigris_free(bytes: *mut c_void);

    // 0.2: plan handles from .tgrs bytes, their graph inputs and outputs, running them.
    pub fn tigris_plan_from_memory(
        out: *mut *mut tigris_execution_plan,
        data: *const c_void,
        size: usize,
    ) -> tigris_status;
    pub fn tigris_plan_from_file(
        out: *mut *mut tigris_execution_plan,
        path: *const c_char,
    ) -> tigris_status;
    pub fn tigris_plan_input_count(plan: *const tigris_execution_plan) -> usize;
    pub fn tigris_plan_output_count(plan: *const tigris_execution_plan) -> usize;
    pub fn tigris_plan_input(
        plan: *const tigris_execution_plan,
        index: usize,
        info: *mut tigris_tensor_info,
    ) -> tigris_status;
    pub fn tigris_plan_output(
        plan: *const tigris_execution_plan,
        index: usize,
        info: *mut tigris_tensor_info,
    ) -> tigris_status;
    pub fn tigris_plan_run(
        plan: *const tigris_execution_plan,
        options: *const tigris_run_options,
        inputs: *const tigris_run_io,
        num_inputs: usize,
        outputs: *mut tigris_run_io,
        num_outputs: usize,
        stats: *mut tigris_run_stats,
    ) -> tigris_status;

    pub fn tigris_run_plan(
        plan: *const c_void,
        plan_size: usize,
        options: *const tigris_run_options,
        inputs: *const tigris_run_io,
        num_inputs: usize,
        outputs: *mut tigris_run_io,
        num_outputs: usize,
        stats: *mut tigris_run_stats,
    ) -> tigris_status;
}
