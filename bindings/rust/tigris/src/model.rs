//! Model, Analysis and Plan: owned libtigris handles freed by Drop.
use std::ffi::CString;
use std::path::Path;
use std::ptr;

use crate::error::{check, cstr, Error, Result};
use crate::size::Size;
use tigris_sys as sys;

pub(crate) fn c_string(s: &str, what: &str) -> Result<CString> {
    CString::new(s).map_err(|_| {
        Error::new(
            sys::TIGRIS_ERR_INVALID_ARGUMENT,
            format!("{what} holds a NUL byte"),
        )
    })
}

/// A loaded, normalized ONNX model (tigris_model).
#[derive(Debug)]
pub struct Model {
    raw: *mut sys::tigris_model,
}

// The handle is only read after loading; libtigris keeps messages per handle and thread.
unsafe impl Send for Model {}

impl Drop for Model {
    fn drop(&mut self) {
        // SAFETY: owned handle, freed once.
        unsafe { sys::tigris_model_free(self.raw) }
    }
}

impl Model {
    /// Loads an ONNX file with the default options (symbolic dimensions = 1).
    pub fn load(path: impl AsRef<Path>) -> Result<Model> {
        let p = c_string(&path.as_ref().to_string_lossy(), "path")?;
        let mut raw = ptr::null_mut();
        // SAFETY: out pointer and C string valid; NULL options = defaults.
        check(unsafe { sys::tigris_load(&mut raw, p.as_ptr(), ptr::null()) })?;
        Ok(Model { raw })
    }

    /// Loads an ONNX model from bytes (copied by the library).
    pub fn from_bytes(data: &[u8]) -> Result<Model> {
        let mut raw = ptr::null_mut();
        // SAFETY: data is valid for len bytes during the call.
        check(unsafe {
            sys::tigris_load_from_memory(&mut raw, data.as_ptr().cast(), data.len(), ptr::null())
        })?;
        Ok(Model { raw })
    }

    pub(crate) fn raw(&self) -> *const sys::tigris_model {
        self.raw
    }

    pub fn name(&self) -> String {
        unsafe { cstr(sys::tigris_model_name(self.raw)) }
    }
    pub fn op_count(&self) -> usize {
        unsafe { sys::tigris_model_op_count(self.raw) }
    }
    pub fn tensor_count(&self) -> usize {
        unsafe { sys::tigris_model_tensor_count(self.raw) }
    }
    /// The normalized model as JSON text (docs/json.md).
    pub fn json(&self) -> String {
        unsafe { cstr(sys::tigris_model_json(self.raw)) }
    }

    fn fail(&self, status: i32) -> Error {
        // SAFETY: live handle; the message is copied before any other call.
        let msg = unsafe { cstr(sys::tigris_model_last_error(self.raw)) };
        if msg.is_empty() {
            Error::last(status)
        } else {
            Error::new(status, msg)
        }
    }

    /// Plans the model under the budgets (fast SRAM required; slow / flash optional).
    pub fn analyze(&self, budgets: &Budgets) -> Result<Analysis> {
        let mut o = sys::tigris_analyze_options::default();
        check(unsafe {
            sys::tigris_analyze_options_init(&mut o, sys::TIGRIS_ANALYZE_OPTIONS_VERSION)
        })?;
        o.fast_bytes = budgets.fast.bytes()?;
        o.slow_bytes = budgets.slow_bytes()?;
        o.flash_bytes = budgets.flash_bytes()?;
        (o.layout, o.time_limit_seconds) = budgets.layout_fields(o.time_limit_seconds);
        (o.objective, o.max_recompute_percent) = budgets.objective_fields();
        let mut raw = ptr::null_mut();
        let status = unsafe { sys::tigris_analyze(&mut raw, self.raw, &o) };
        if status != sys::TIGRIS_OK {
            return Err(self.fail(status));
        }
        Ok(Analysis { raw })
    }

    /// Compiles an execution plan. `xip`: weights read in place from flash.
    pub fn plan(&self, budgets: &Budgets, xip: bool, lz4: bool) -> Result<Plan> {
        let mut o = plan_options(xip, lz4)?;
        o.fast_bytes = budgets.fast.bytes()?;
        o.slow_bytes = budgets.slow_bytes()?;
        o.flash_bytes = budgets.flash_bytes()?;
        (o.layout, o.time_limit_seconds) = budgets.layout_fields(o.time_limit_seconds);
        (o.objective, o.max_recompute_percent) = budgets.objective_fields();
        let mut raw = ptr::null_mut();
        let status = unsafe { sys::tigris_plan(&mut raw, self.raw, &o) };
        if status != sys::TIGRIS_OK {
            return Err(self.fail(status));
        }
        Ok(Plan { raw })
    }

    /// Compiles a plan for a part's memories instead of budgets, with its placement rules
    /// if it has any (`tigris compile --target T.yaml [--rules R.yaml]`, docs/memories.md).
    pub fn plan_for_target(&self, target: &Target, xip: bool, lz4: bool) -> Result<Plan> {
        let mut o = plan_options(xip, lz4)?;
        if let Some((rules, source)) = &target.rules {
            o.rules_yaml = rules.as_ptr();
            o.rules_source = source.as_ptr();
        }
        let mut raw = ptr::null_mut();
        // SAFETY: the strings live in `target` for the whole call; the library keeps none.
        let status = unsafe {
            sys::tigris_plan_for_target(
                &mut raw,
                self.raw,
                &o,
                target.yaml.as_ptr(),
                target.source.as_ptr(),
            )
        };
        if status != sys::TIGRIS_OK {
            return Err(self.fail(status));
        }
        Ok(Plan { raw })
    }
}

// Plan options with the weight and compression choices; budgets zero.
fn plan_options(xip: bool, lz4: bool) -> Result<sys::tigris_plan_options> {
    let mut o = sys::tigris_plan_options::default();
    check(unsafe { sys::tigris_plan_options_init(&mut o, sys::TIGRIS_PLAN_OPTIONS_VERSION) })?;
    o.xip = xip as i32;
    o.compression = if lz4 {
        sys::TIGRIS_COMPRESSION_LZ4
    } else {
        sys::TIGRIS_COMPRESSION_NONE
    };
    Ok(o)
}

/// A part's memories (docs/memories.md): the YAML text of a target description and the name
/// its messages use, with placement rules (their text and name) when given.
#[derive(Debug, Clone)]
pub struct Target {
    yaml: CString,
    source: CString,
    rules: Option<(CString, CString)>,
}

impl Target {
    /// A target from its YAML text; `source` names it in messages.
    pub fn new(yaml: &str, source: &str) -> Result<Target> {
        Ok(Target {
            yaml: c_string(yaml, "target")?,
            source: c_string(source, "target name")?,
            rules: None,
        })
    }
    /// The same target with placement rules (`--rules`).
    pub fn with_rules(mut self, yaml: &str, source: &str) -> Result<Target> {
        self.rules = Some((c_string(yaml, "rules")?, c_string(source, "rules name")?));
        Ok(self)
    }
    /// Reads a target description, and placement rules when `rules` is given, from files.
    pub fn from_files(target: impl AsRef<Path>, rules: Option<&Path>) -> Result<Target> {
        let read = |path: &Path| {
            std::fs::read_to_string(path).map_err(|e| {
                Error::new(
                    sys::TIGRIS_ERR_IO,
                    format!("cannot read {}: {e}", path.display()),
                )
            })
        };
        let path = target.as_ref();
        let t = Target::new(&read(path)?, &path.to_string_lossy())?;
        match rules {
            Some(r) => t.with_rules(&read(r)?, &r.to_string_lossy()),
            None => Ok(t),
        }
    }
}

/// Memory budgets: fast (SRAM) is required; slow (PSRAM) and flash are "not given" by default.
/// `layout` says how hard to work at packing each arena (the CLI's `--layout`,
/// `--time-limit`); `objective` whether to search, and for what (`--objective`,
/// `--max-recompute`).
#[derive(Debug, Clone)]
pub struct Budgets {
    pub fast: Size,
    pub slow: Option<Size>,
    pub flash: Option<Size>,
    pub layout: Layout,
    pub objective: Objective,
}

/// What the planner optimizes (tigris_objective; docs/planning.md, "Search").
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Objective {
    /// One planning pass: the simplest strategies that fit, the largest tiles (the default).
    OnePass,
    /// Search every configuration of tiling strategies and FDT splits at lower planning
    /// budgets; take the least fast memory, among plans recomputing at most
    /// `max_recompute_percent` of the MACs when given.
    Memory { max_recompute_percent: Option<f64> },
    /// Search; take the least recompute, then slow traffic and tile steps.
    Latency { max_recompute_percent: Option<f64> },
}

/// How the planner places buffers in an arena (docs/memory-model.md).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Layout {
    /// The lower of first fit and greedy by size: fast, the default.
    Greedy,
    /// Then an exact (MILP) layout for every arena above its live bound, all solves within
    /// `time_limit_seconds` for the whole plan.
    Exact { time_limit_seconds: f64 },
}

impl Budgets {
    pub fn fast(fast: impl Into<Size>) -> Budgets {
        Budgets {
            fast: fast.into(),
            slow: None,
            flash: None,
            layout: Layout::Greedy,
            objective: Objective::OnePass,
        }
    }
    pub fn with_layout(mut self, layout: Layout) -> Budgets {
        self.layout = layout;
        self
    }
    pub fn with_objective(mut self, objective: Objective) -> Budgets {
        self.objective = objective;
        self
    }
    pub fn with_slow(mut self, slow: impl Into<Size>) -> Budgets {
        self.slow = Some(slow.into());
        self
    }
    pub fn with_flash(mut self, flash: impl Into<Size>) -> Budgets {
        self.flash = Some(flash.into());
        self
    }
    fn slow_bytes(&self) -> Result<u64> {
        self.slow.as_ref().map_or(Ok(0), Size::bytes)
    }
    fn flash_bytes(&self) -> Result<u64> {
        self.flash.as_ref().map_or(Ok(0), Size::bytes)
    }
    /// (tigris_objective, max_recompute_percent) for an options struct.
    fn objective_fields(&self) -> (sys::tigris_objective, f64) {
        match self.objective {
            Objective::OnePass => (sys::TIGRIS_OBJECTIVE_NONE, -1.0),
            Objective::Memory {
                max_recompute_percent,
            } => (
                sys::TIGRIS_OBJECTIVE_MEMORY,
                max_recompute_percent.unwrap_or(-1.0),
            ),
            Objective::Latency {
                max_recompute_percent,
            } => (
                sys::TIGRIS_OBJECTIVE_LATENCY,
                max_recompute_percent.unwrap_or(-1.0),
            ),
        }
    }
    /// (tigris_layout, time limit) for an options struct; the greedy layout keeps the
    /// library's default limit.
    fn layout_fields(&self, default_limit: f64) -> (sys::tigris_layout, f64) {
        match self.layout {
            Layout::Greedy => (sys::TIGRIS_LAYOUT_GREEDY, default_limit),
            Layout::Exact { time_limit_seconds } => (sys::TIGRIS_LAYOUT_EXACT, time_limit_seconds),
        }
    }
}

/// How the model runs under the budget (tigris_verdict).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Ok,
    Partitioned,
    Tiled,
    NeedsWork,
}

/// A memory analysis (tigris_analysis).
#[derive(Debug)]
pub struct Analysis {
    raw: *mut sys::tigris_analysis,
}
unsafe impl Send for Analysis {}

impl Drop for Analysis {
    fn drop(&mut self) {
        unsafe { sys::tigris_analysis_free(self.raw) }
    }
}

impl Analysis {
    pub fn verdict(&self) -> Verdict {
        match unsafe { sys::tigris_analysis_verdict(self.raw) } {
            sys::TIGRIS_VERDICT_OK => Verdict::Ok,
            sys::TIGRIS_VERDICT_PARTITIONED => Verdict::Partitioned,
            sys::TIGRIS_VERDICT_TILED => Verdict::Tiled,
            _ => Verdict::NeedsWork,
        }
    }
    /// What `compile` would say of a plan whose stages all fit but that it refuses (its
    /// weights over the flash budget, an op the runtime cannot run): then the verdict is
    /// `NeedsWork`. `None` when nothing was refused.
    pub fn refusal(&self) -> Option<Error> {
        // SAFETY: a live handle; the message is owned by it and copied here.
        let status = unsafe { sys::tigris_analysis_refusal_status(self.raw) };
        if status == sys::TIGRIS_OK {
            return None;
        }
        Some(Error::new(status, unsafe { cstr(sys::tigris_analysis_refusal(self.raw)) }))
    }
    pub fn scheduled_peak_bytes(&self) -> u64 {
        unsafe { sys::tigris_analysis_scheduled_peak_bytes(self.raw) }
    }
    pub fn naive_peak_bytes(&self) -> u64 {
        unsafe { sys::tigris_analysis_naive_peak_bytes(self.raw) }
    }
    pub fn slow_peak_bytes(&self) -> u64 {
        unsafe { sys::tigris_analysis_slow_peak_bytes(self.raw) }
    }
    pub fn stage_count(&self) -> usize {
        unsafe { sys::tigris_analysis_stage_count(self.raw) }
    }
    pub fn tiled_stage_count(&self) -> usize {
        unsafe { sys::tigris_analysis_tiled_stage_count(self.raw) }
    }
    pub fn chain_count(&self) -> usize {
        unsafe { sys::tigris_analysis_chain_count(self.raw) }
    }
    pub fn macs(&self) -> u64 {
        unsafe { sys::tigris_analysis_macs(self.raw) }
    }
    /// The report as JSON text: what `tigris analyze --json` prints.
    pub fn json(&self) -> String {
        unsafe { cstr(sys::tigris_analysis_json(self.raw)) }
    }
    /// The memory timeline as an SVG picture.
    pub fn timeline_svg(&self) -> String {
        unsafe { cstr(sys::tigris_analysis_timeline_svg(self.raw)) }
    }
}

/// A compiled execution plan (tigris_execution_plan).
#[derive(Debug)]
pub struct Plan {
    raw: *mut sys::tigris_execution_plan,
}
unsafe impl Send for Plan {}

impl Drop for Plan {
    fn drop(&mut self) {
        unsafe { sys::tigris_plan_free(self.raw) }
    }
}

impl Plan {
    pub(crate) fn from_raw(raw: *mut sys::tigris_execution_plan) -> Plan {
        Plan { raw }
    }
    pub(crate) fn raw(&self) -> *const sys::tigris_execution_plan {
        self.raw
    }

    /// The .tgrs file bytes (deterministic).
    pub fn emit(&self) -> Result<Vec<u8>> {
        let mut data: *mut std::os::raw::c_void = ptr::null_mut();
        let mut size = 0usize;
        check(unsafe { sys::tigris_emit(&mut data, &mut size, self.raw) })?;
        // SAFETY: the library handed out `size` bytes at `data`; copied, then released.
        let bytes = unsafe { std::slice::from_raw_parts(data as *const u8, size).to_vec() };
        unsafe { sys::tigris_free(data) };
        Ok(bytes)
    }
    /// What the plan keeps in each memory, as JSON (tigris_plan_memories_json): `[{"name",
    /// "size", "used_bytes", "peak_bytes", "traffic_bytes", "role"}]`.
    pub fn memories_json(&self) -> String {
        unsafe { cstr(sys::tigris_plan_memories_json(self.raw)) }
    }
    /// What the search found when the budgets had an objective (tigris_plan_exploration_json):
    /// the analysis JSON's "exploration" object, or "null" for a plan made in one pass.
    pub fn exploration_json(&self) -> String {
        unsafe { cstr(sys::tigris_plan_exploration_json(self.raw)) }
    }
    /// Warnings from compiling (placement rules whose ids match no tensor), one per entry.
    pub fn warnings(&self) -> Vec<String> {
        let text = unsafe { cstr(sys::tigris_plan_warnings(self.raw)) };
        text.lines()
            .filter(|l| !l.is_empty())
            .map(String::from)
            .collect()
    }
    /// Ok when the plan fits `target`: every memory it names is the target's and holds what
    /// the plan puts there (`tigris run --target`).
    pub fn check_target(&self, target: &Target) -> Result<()> {
        let bytes = self.emit()?;
        // SAFETY: the bytes and strings are valid for the call.
        check(unsafe {
            sys::tigris_plan_check_target(
                bytes.as_ptr().cast(),
                bytes.len(),
                target.yaml.as_ptr(),
                target.source.as_ptr(),
            )
        })
    }
    /// Writes the .tgrs file.
    pub fn save(&self, path: impl AsRef<Path>) -> Result<()> {
        let p = c_string(&path.as_ref().to_string_lossy(), "path")?;
        check(unsafe { sys::tigris_emit_to_file(self.raw, p.as_ptr()) })
    }
    pub fn file_bytes(&self) -> u64 {
        unsafe { sys::tigris_plan_file_bytes(self.raw) }
    }
    pub fn fast_arena_bytes(&self) -> u64 {
        unsafe { sys::tigris_plan_fast_arena_bytes(self.raw) }
    }
    pub fn slow_arena_bytes(&self) -> u64 {
        unsafe { sys::tigris_plan_slow_arena_bytes(self.raw) }
    }
}
