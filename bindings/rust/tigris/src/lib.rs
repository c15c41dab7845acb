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
pub use model::{Analysis, Budgets, Model, Plan, Verdict};
pub use run::{DType, Input, Output, RunOptions, RunStats, TensorData, TensorInfo};
pub use size::{parse_size, Size};

/// Version of the libtigris actually loaded, e.g. "0.2.0".
pub fn version() -> String {
    unsafe { error::cstr(tigris_sys::tigris_version()) }
}

/// Status codes of tigris.h, pinned forever.
pub mod status {
    pub use tigris_sys::{
        TIGRIS_ERR_EMPTY_MODEL as EMPTY_MODEL, TIGRIS_ERR_INVALID_ARGUMENT as INVALID_ARGUMENT,
        TIGRIS_ERR_INVALID_PLAN as INVALID_PLAN, TIGRIS_ERR_IO as IO,
        TIGRIS_ERR_NOT_ONNX as NOT_ONNX,
    };
}
