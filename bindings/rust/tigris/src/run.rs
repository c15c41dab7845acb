//! Plans as values: graph inputs and outputs (TensorInfo), plans read from .tgrs bytes, and
//! Plan::run on the host with the C99 runtime (tigris.h, "A plan's graph inputs and outputs").
use std::path::Path;
use std::ptr;

use crate::error::{check, cstr, Error, Result};
use crate::model::{c_string, Model, Plan};
use tigris_sys as sys;

/// Element type (tigris_dtype, pinned values).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DType {
    Unknown,
    F32,
    I8,
    U8,
    I16,
    I32,
    I64,
    F16,
    F64,
    Bool,
    U16,
}

impl DType {
    fn from_c(d: sys::tigris_dtype) -> DType {
        match d {
            sys::TIGRIS_DTYPE_FLOAT32 => DType::F32,
            sys::TIGRIS_DTYPE_INT8 => DType::I8,
            sys::TIGRIS_DTYPE_UINT8 => DType::U8,
            sys::TIGRIS_DTYPE_INT16 => DType::I16,
            sys::TIGRIS_DTYPE_INT32 => DType::I32,
            sys::TIGRIS_DTYPE_INT64 => DType::I64,
            sys::TIGRIS_DTYPE_FLOAT16 => DType::F16,
            sys::TIGRIS_DTYPE_FLOAT64 => DType::F64,
            sys::TIGRIS_DTYPE_BOOL => DType::Bool,
            sys::TIGRIS_DTYPE_UINT16 => DType::U16,
            _ => DType::Unknown,
        }
    }
    fn to_c(self) -> sys::tigris_dtype {
        match self {
            DType::F32 => sys::TIGRIS_DTYPE_FLOAT32,
            DType::I8 => sys::TIGRIS_DTYPE_INT8,
            DType::U8 => sys::TIGRIS_DTYPE_UINT8,
            DType::I16 => sys::TIGRIS_DTYPE_INT16,
            DType::I32 => sys::TIGRIS_DTYPE_INT32,
            DType::I64 => sys::TIGRIS_DTYPE_INT64,
            DType::F16 => sys::TIGRIS_DTYPE_FLOAT16,
            DType::F64 => sys::TIGRIS_DTYPE_FLOAT64,
            DType::Bool => sys::TIGRIS_DTYPE_BOOL,
            DType::U16 => sys::TIGRIS_DTYPE_UINT16,
            DType::Unknown => sys::TIGRIS_DTYPE_UNKNOWN,
        }
    }
    /// Bytes of one element (0 for Unknown).
    pub fn size(self) -> usize {
        match self {
            DType::I8 | DType::U8 | DType::Bool => 1,
            DType::I16 | DType::U16 | DType::F16 => 2,
            DType::F32 | DType::I32 => 4,
            DType::I64 | DType::F64 => 8,
            DType::Unknown => 0,
        }
    }
}

/// A graph input or output: name, dtype, ONNX (NCHW) shape and, when quantized, its scales
/// and zero points (one, or one per channel).
#[derive(Debug, Clone, PartialEq)]
pub struct TensorInfo {
    pub name: String,
    pub dtype: DType,
    pub shape: Vec<i64>,
    pub scales: Vec<f32>,
    pub zero_points: Vec<i32>,
}

impl TensorInfo {
    /// Number of elements (1 for a scalar; 0 if a dimension is negative, saturating).
    pub fn elements(&self) -> usize {
        self.shape.iter().fold(1usize, |n, &d| {
            n.saturating_mul(usize::try_from(d).unwrap_or(0))
        })
    }

    /// Calls `fill` (tigris_plan_input, tigris_model_tensor, ...) on a fresh info struct.
    fn read(fill: impl FnOnce(*mut sys::tigris_tensor_info) -> i32) -> Result<TensorInfo> {
        let mut info = sys::tigris_tensor_info {
            version: sys::TIGRIS_TENSOR_INFO_VERSION,
            name: ptr::null(),
            dtype: 0,
            rank: 0,
            shape: ptr::null(),
            is_constant: 0,
            num_scales: 0,
            scales: ptr::null(),
            zero_points: ptr::null(),
            quant_axis: -1,
        };
        check(fill(&mut info))?;
        // SAFETY: the library filled arrays of `rank` / `num_scales` elements that live as
        // long as the handle; copied here.
        let slice = |p: *const i64, n: usize| unsafe {
            if n == 0 {
                Vec::new()
            } else {
                std::slice::from_raw_parts(p, n).to_vec()
            }
        };
        let (scales, zero_points) = if info.num_scales == 0 {
            (Vec::new(), Vec::new())
        } else {
            unsafe {
                (
                    std::slice::from_raw_parts(info.scales, info.num_scales).to_vec(),
                    std::slice::from_raw_parts(info.zero_points, info.num_scales).to_vec(),
                )
            }
        };
        Ok(TensorInfo {
            name: unsafe { cstr(info.name) },
            dtype: DType::from_c(info.dtype),
            shape: slice(info.shape, info.rank),
            scales,
            zero_points,
        })
    }
}

/// One input of Plan::run, in the ONNX layout: a slice of the plan input's dtype, or f32 for
/// an int8 input (then quantized with the plan's scale and zero point).
#[derive(Debug, Clone, Copy)]
pub enum Input<'a> {
    F32(&'a [f32]),
    I8(&'a [i8]),
    U8(&'a [u8]),
    I32(&'a [i32]),
}

impl Input<'_> {
    fn dtype(&self) -> DType {
        match self {
            Input::F32(_) => DType::F32,
            Input::I8(_) => DType::I8,
            Input::U8(_) => DType::U8,
            Input::I32(_) => DType::I32,
        }
    }
    fn len(&self) -> usize {
        match self {
            Input::F32(s) => s.len(),
            Input::I8(s) => s.len(),
            Input::U8(s) => s.len(),
            Input::I32(s) => s.len(),
        }
    }
    fn bytes(&self) -> (*const u8, usize) {
        match self {
            Input::F32(s) => (s.as_ptr().cast(), std::mem::size_of_val(*s)),
            Input::I8(s) => (s.as_ptr().cast(), s.len()),
            Input::U8(s) => (s.as_ptr(), s.len()),
            Input::I32(s) => (s.as_ptr().cast(), std::mem::size_of_val(*s)),
        }
    }
}

/// The values of one output.
#[derive(Debug, Clone, PartialEq)]
pub enum TensorData {
    F32(Vec<f32>),
    I8(Vec<i8>),
    /// Any other dtype, as little-endian bytes.
    Raw(DType, Vec<u8>),
}

impl TensorData {
    /// The values as little-endian bytes (what `tigris run` writes after the .npy header).
    pub fn to_bytes(&self) -> Vec<u8> {
        match self {
            TensorData::F32(v) => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
            TensorData::I8(v) => v.iter().map(|&x| x as u8).collect(),
            TensorData::Raw(_, b) => b.clone(),
        }
    }
}

/// One output of Plan::run.
#[derive(Debug, Clone, PartialEq)]
pub struct Output {
    pub name: String,
    pub shape: Vec<i64>,
    pub data: TensorData,
}

/// Options of Plan::run_with: `dequantize` returns int8 outputs as f32 (ONNX
/// DequantizeLinear with the plan's scale); `fast_bytes` / `slow_bytes` run with arenas of
/// those sizes instead of the plan's (0: the plan's).
#[derive(Debug, Clone, Copy, Default)]
pub struct RunOptions {
    pub dequantize: bool,
    pub fast_bytes: u64,
    pub slow_bytes: u64,
}

/// What one run measured: the arenas, the highest byte touched in each (+1), the time.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RunStats {
    pub fast_arena_bytes: u64,
    pub slow_arena_bytes: u64,
    pub fast_hwm_bytes: u64,
    pub slow_hwm_bytes: u64,
    pub run_seconds: f64,
}

impl Model {
    /// The normalized model's graph inputs, shapes as in the ONNX file.
    pub fn inputs(&self) -> Result<Vec<TensorInfo>> {
        self.tensors(false)
    }
    /// The normalized model's graph outputs.
    pub fn outputs(&self) -> Result<Vec<TensorInfo>> {
        self.tensors(true)
    }
    fn tensors(&self, outputs: bool) -> Result<Vec<TensorInfo>> {
        let raw = self.raw();
        let count = unsafe {
            if outputs {
                sys::tigris_model_output_count(raw)
            } else {
                sys::tigris_model_input_count(raw)
            }
        };
        (0..count)
            .map(|i| {
                let index = unsafe {
                    if outputs {
                        sys::tigris_model_output(raw, i)
                    } else {
                        sys::tigris_model_input(raw, i)
                    }
                };
                TensorInfo::read(|info| unsafe {
                    sys::tigris_model_tensor(raw, index as usize, info)
                })
            })
            .collect()
    }
}

impl Plan {
    /// Reads a .tgrs file; the runtime's verifier checks it first (status
    /// TIGRIS_ERR_INVALID_PLAN names the field and rule a bad file breaks).
    pub fn from_file(path: impl AsRef<Path>) -> Result<Plan> {
        let p = c_string(&path.as_ref().to_string_lossy(), "path")?;
        let mut raw = ptr::null_mut();
        check(unsafe { sys::tigris_plan_from_file(&mut raw, p.as_ptr()) })?;
        Ok(Plan::from_raw(raw))
    }

    /// Plan::from_file for the bytes of a .tgrs file (copied by the library).
    pub fn from_bytes(data: &[u8]) -> Result<Plan> {
        let mut raw = ptr::null_mut();
        check(unsafe { sys::tigris_plan_from_memory(&mut raw, data.as_ptr().cast(), data.len()) })?;
        Ok(Plan::from_raw(raw))
    }

    /// The plan's graph inputs as it states them (an int8 plan's quantized input is I8).
    pub fn inputs(&self) -> Result<Vec<TensorInfo>> {
        let raw = self.raw();
        (0..unsafe { sys::tigris_plan_input_count(raw) })
            .map(|i| TensorInfo::read(|info| unsafe { sys::tigris_plan_input(raw, i, info) }))
            .collect()
    }

    /// The plan's graph outputs.
    pub fn outputs(&self) -> Result<Vec<TensorInfo>> {
        let raw = self.raw();
        (0..unsafe { sys::tigris_plan_output_count(raw) })
            .map(|i| TensorInfo::read(|info| unsafe { sys::tigris_plan_output(raw, i, info) }))
            .collect()
    }

    /// Runs the plan once with the C99 runtime (the code a microcontroller runs), in arenas
    /// of the plan's sizes. `inputs` follow `inputs()`; the output bytes equal those of
    /// `tigris run` on the same plan and input.
    pub fn run(&self, inputs: &[Input]) -> Result<(Vec<Output>, RunStats)> {
        self.run_with(inputs, &RunOptions::default())
    }

    /// Plan::run with options.
    pub fn run_with(
        &self,
        inputs: &[Input],
        options: &RunOptions,
    ) -> Result<(Vec<Output>, RunStats)> {
        let specs = self.inputs()?;
        let bad =
            |m: String| Error::new(sys::TIGRIS_ERR_INVALID_ARGUMENT, format!("Plan::run: {m}"));
        if inputs.len() != specs.len() {
            return Err(bad(format!(
                "the plan has {} inputs, got {}",
                specs.len(),
                inputs.len()
            )));
        }
        let mut ios = Vec::with_capacity(inputs.len());
        for (spec, input) in specs.iter().zip(inputs) {
            let converts = spec.dtype == DType::I8 && input.dtype() == DType::F32;
            if input.dtype() != spec.dtype && !converts {
                return Err(bad(format!(
                    "input '{}' is {:?}; got {:?}",
                    spec.name,
                    spec.dtype,
                    input.dtype()
                )));
            }
            let (data, size) = input.bytes();
            if input.len() != spec.elements() {
                return Err(bad(format!(
                    "input '{}' {:?} needs {} elements, got {}",
                    spec.name,
                    spec.shape,
                    spec.elements(),
                    input.len()
                )));
            }
            ios.push(sys::tigris_run_io {
                version: sys::TIGRIS_RUN_IO_VERSION,
                dtype: input.dtype().to_c(),
                data: data as *mut _, // read only: tigris.h, tigris_run_io
                size,
            });
        }
        let out_specs = self.outputs()?;
        let mut buffers: Vec<(DType, Vec<u8>)> = out_specs
            .iter()
            .map(|s| {
                let dtype = if options.dequantize && s.dtype == DType::I8 {
                    DType::F32
                } else {
                    s.dtype
                };
                let size = s.elements().checked_mul(dtype.size()).ok_or_else(|| {
                    bad(format!("output '{}' {:?} is too large", s.name, s.shape))
                })?;
                Ok((dtype, vec![0u8; size]))
            })
            .collect::<Result<_>>()?;
        let mut outs: Vec<sys::tigris_run_io> = buffers
            .iter_mut()
            .map(|(dtype, bytes)| sys::tigris_run_io {
                version: sys::TIGRIS_RUN_IO_VERSION,
                dtype: dtype.to_c(),
                data: bytes.as_mut_ptr().cast(),
                size: bytes.len(),
            })
            .collect();
        let c_options = sys::tigris_run_options {
            version: sys::TIGRIS_RUN_OPTIONS_VERSION,
            fast_bytes: options.fast_bytes,
            slow_bytes: options.slow_bytes,
        };
        let mut stats = sys::tigris_run_stats {
            version: sys::TIGRIS_RUN_STATS_VERSION,
            ..Default::default()
        };
        // SAFETY: every tigris_run_io points into a live slice or Vec of `size` bytes for
        // the duration of the call; inputs are only read.
        let status = unsafe {
            sys::tigris_plan_run(
                self.raw(),
                &c_options,
                ios.as_ptr(),
                ios.len(),
                outs.as_mut_ptr(),
                outs.len(),
                &mut stats,
            )
        };
        if status != sys::TIGRIS_OK {
            return Err(self.fail(status));
        }
        let outputs = out_specs
            .into_iter()
            .zip(buffers)
            .map(|(spec, (dtype, bytes))| Output {
                name: spec.name,
                shape: spec.shape,
                data: match dtype {
                    DType::F32 => TensorData::F32(
                        bytes
                            .chunks_exact(4)
                            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                            .collect(),
                    ),
                    DType::I8 => TensorData::I8(bytes.iter().map(|&b| b as i8).collect()),
                    other => TensorData::Raw(other, bytes),
                },
            })
            .collect();
        Ok((
            outputs,
            RunStats {
                fast_arena_bytes: stats.fast_arena_bytes,
                slow_arena_bytes: stats.slow_arena_bytes,
                fast_hwm_bytes: stats.fast_hwm_bytes,
                slow_hwm_bytes: stats.slow_hwm_bytes,
                run_seconds: stats.run_seconds,
            },
        ))
    }

    fn fail(&self, status: i32) -> Error {
        // SAFETY: live handle; the message is copied before any other call.
        let msg = unsafe { cstr(sys::tigris_plan_last_error(self.raw())) };
        if msg.is_empty() {
            Error::last(status)
        } else {
            Error::new(status, msg)
        }
    }
}
