//! Safe Rust API of TiGrIS over the C ABI (include/tigris.h, via tigris-sys).
//!
//! ```no_run
//! use tigris::{Budgets, Model};
//! let model = Model::load("model.onnx")?;
//! let analysis = model.analyze(&Budgets::fast("64K"))?;
//! println!("{} bytes peak, {:?}", analysis.scheduled_peak_bytes(), analysis.verdict());
//! let plan = model.plan(&Budgets::fast("64K"), true, false)?;
//! let x = vec![0.0f32; plan.inputs()?[0].elements()];
//! let (outputs, stats) = plan.run(&[tigris::Input::F32(&x)])?;
//! println!("{:?}, fast high-water mark {}", outputs[0].shape, stats.fast_hwm_bytes);
//! let tgrs: Vec<u8> = plan.emit()?;
//! # Ok::<(), tigris::Error>(())
//! ```
mod error;
mod model;
mod run;
mod size;

pub use error::{Error, Result};
pub use model::{Analysis, Budgets, Layout, Model, Objective, Plan, Target, Verdict};
pub use run::{DType, Input, Output, RunOptions, RunStats, TensorData, TensorInfo};
pub use size::{parse_size, Size};

/// Version of the libtigris actually loaded, e.g. "0.3.0".
pub fn version() -> String {
    unsafe { error::cstr(tigris_sys::tigris_version()) }
}

/// Status codes of tigris.h, pinned forever (compare with `Error::status()`).
pub mod status {
    pub use tigris_sys::TIGRIS_ERR_DANGLING_INPUT as DANGLING_INPUT;
    pub use tigris_sys::TIGRIS_ERR_DOES_NOT_FIT as DOES_NOT_FIT;
    pub use tigris_sys::TIGRIS_ERR_DYNAMIC_SHAPE as DYNAMIC_SHAPE;
    pub use tigris_sys::TIGRIS_ERR_EMPTY_MODEL as EMPTY_MODEL;
    pub use tigris_sys::TIGRIS_ERR_EXTERNAL_DATA as EXTERNAL_DATA;
    pub use tigris_sys::TIGRIS_ERR_FLASH_BUDGET_TOO_SMALL as FLASH_BUDGET_TOO_SMALL;
    pub use tigris_sys::TIGRIS_ERR_GRAPH_CYCLE as GRAPH_CYCLE;
    pub use tigris_sys::TIGRIS_ERR_INTERNAL as INTERNAL;
    pub use tigris_sys::TIGRIS_ERR_INVALID_ARGUMENT as INVALID_ARGUMENT;
    pub use tigris_sys::TIGRIS_ERR_INVALID_BUDGET as INVALID_BUDGET;
    pub use tigris_sys::TIGRIS_ERR_INVALID_MODEL as INVALID_MODEL;
    pub use tigris_sys::TIGRIS_ERR_INVALID_PLAN as INVALID_PLAN;
    pub use tigris_sys::TIGRIS_ERR_IO as IO;
    pub use tigris_sys::TIGRIS_ERR_NOT_ONNX as NOT_ONNX;
    pub use tigris_sys::TIGRIS_ERR_OUT_OF_MEMORY as OUT_OF_MEMORY;
    pub use tigris_sys::TIGRIS_ERR_SHAPE_INFERENCE as SHAPE_INFERENCE;
    pub use tigris_sys::TIGRIS_ERR_SLOW_BUDGET_TOO_SMALL as SLOW_BUDGET_TOO_SMALL;
    pub use tigris_sys::TIGRIS_ERR_TRUNCATED_MODEL as TRUNCATED_MODEL;
    pub use tigris_sys::TIGRIS_ERR_UNSUPPORTED_DTYPE as UNSUPPORTED_DTYPE;
    pub use tigris_sys::TIGRIS_ERR_UNSUPPORTED_OP as UNSUPPORTED_OP;
    pub use tigris_sys::TIGRIS_ERR_UNSUPPORTED_QUANTIZATION as UNSUPPORTED_QUANTIZATION;
    pub use tigris_sys::TIGRIS_ERR_VERSION_MISMATCH as VERSION_MISMATCH;
    pub use tigris_sys::TIGRIS_OK as OK;
}
