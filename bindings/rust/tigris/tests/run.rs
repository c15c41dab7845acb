//! Plan::run against `tigris run` on the same plan and input, graph I/O against what
//! mnist8.onnx declares, and the errors of bad input.
#[allow(dead_code)] // run.rs uses cli(), not the JSON reader
mod support;

use std::path::PathBuf;
use std::process::Command;

use tigris::{status, Budgets, DType, Input, Model, Plan, RunOptions};

fn mnist8() -> PathBuf {
    let dir = std::env::var("TIGRIS_MODELS_DIR").expect("TIGRIS_MODELS_DIR (ctest sets it)");
    PathBuf::from(dir).join("onnx/mnist8.onnx")
}

fn compile(fast: &str) -> Plan {
    Model::load(mnist8())
        .unwrap()
        .plan(&Budgets::fast(fast), true, false)
        .unwrap()
}

/// A float32 .npy (format 1.0) of `shape`.
fn npy(shape: &[i64], values: &[f32]) -> Vec<u8> {
    let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    let mut header = format!(
        "{{'descr': '<f4', 'fortran_order': False, 'shape': ({},), }}",
        dims.join(", ")
    );
    while (10 + header.len() + 1) % 64 != 0 {
        header.push(' ');
    }
    header.push('\n');
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend((header.len() as u16).to_le_bytes());
    out.extend(header.bytes());
    out.extend(values.iter().flat_map(|v| v.to_le_bytes()));
    out
}

/// The data section of a .npy file (format 1.0 or 2.0).
fn npy_data(raw: &[u8]) -> &[u8] {
    if raw[6] == 1 {
        &raw[10 + u16::from_le_bytes([raw[8], raw[9]]) as usize..]
    } else {
        &raw[12 + u32::from_le_bytes([raw[8], raw[9], raw[10], raw[11]]) as usize..]
    }
}

#[test]
fn inputs_and_outputs_are_the_onnx_declarations() {
    // mnist8.onnx: input Input3 [1,1,28,28], output Plus214_Output_0 [1,10], float32.
    let model = Model::load(mnist8()).unwrap();
    let plan = compile("64K");
    for inputs in [model.inputs().unwrap(), plan.inputs().unwrap()] {
        assert_eq!(inputs.len(), 1);
        assert_eq!(inputs[0].name, "Input3");
        assert_eq!(inputs[0].dtype, DType::F32);
        assert_eq!(inputs[0].shape, vec![1, 1, 28, 28]);
        assert!(inputs[0].scales.is_empty());
    }
    for outputs in [model.outputs().unwrap(), plan.outputs().unwrap()] {
        assert_eq!(outputs[0].name, "Plus214_Output_0");
        assert_eq!(outputs[0].shape, vec![1, 10]);
    }
}

#[test]
fn run_equals_cli_run_for_compiled_and_loaded_plans() {
    let plan = compile("16K"); // tiled
    let dir = std::env::temp_dir().join(format!("tigris_rust_run_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let plan_path = dir.join("p.tgrs");
    plan.save(&plan_path).unwrap();
    let x: Vec<f32> = (0..28 * 28).map(|i| (0.37 * i as f32).sin()).collect();
    std::fs::write(dir.join("x.npy"), npy(&[1, 1, 28, 28], &x)).unwrap();
    let out = Command::new(support::cli())
        .arg("run")
        .arg(&plan_path)
        .arg("--input")
        .arg(dir.join("x.npy"))
        .arg("--output")
        .arg(dir.join("y.npy"))
        .output()
        .expect("running the tigris CLI");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let raw = std::fs::read(dir.join("y.npy")).unwrap();
    let want = npy_data(&raw);

    let loaded = Plan::from_file(&plan_path).unwrap();
    let from_bytes = Plan::from_bytes(&plan.emit().unwrap()).unwrap();
    for (what, p) in [
        ("compiled", &plan),
        ("loaded", &loaded),
        ("from bytes", &from_bytes),
    ] {
        let (outputs, stats) = p.run(&[Input::F32(&x)]).unwrap();
        assert_eq!(outputs[0].name, "Plus214_Output_0");
        assert_eq!(
            outputs[0].data.to_bytes(),
            want,
            "{what} plan: bytes differ from tigris run"
        );
        assert_eq!(
            (stats.fast_hwm_bytes + 15) / 16 * 16,
            p.fast_arena_bytes(),
            "{what}"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_runs_and_plans_are_errors_with_statuses() {
    let plan = compile("64K");
    let x = vec![0.0f32; 28 * 28];
    let err = plan.run(&[]).unwrap_err();
    assert_eq!(err.status(), status::INVALID_ARGUMENT);
    assert!(
        err.message().contains("the plan has 1 inputs, got 0"),
        "{err}"
    );
    let err = plan.run(&[Input::F32(&x[..100])]).unwrap_err();
    assert!(
        err.message().contains("needs 784 elements, got 100"),
        "{err}"
    );
    let err = plan.run(&[Input::I8(&[0i8; 784])]).unwrap_err();
    assert!(err.message().contains("is F32; got I8"), "{err}");
    let options = RunOptions {
        fast_bytes: 16,
        ..Default::default()
    };
    let err = plan.run_with(&[Input::F32(&x)], &options).unwrap_err();
    assert!(err.message().contains("TGRS_ERR_ARENA_TOO_SMALL"), "{err}");
    let mut data = plan.emit().unwrap();
    data[5] ^= 0x20; // the file identifier "TGRS"
    assert_eq!(
        Plan::from_bytes(&data).unwrap_err().status(),
        status::INVALID_PLAN
    );
    assert_eq!(
        Plan::from_file("/nonexistent/p.tgrs").unwrap_err().status(),
        status::IO
    );
}
