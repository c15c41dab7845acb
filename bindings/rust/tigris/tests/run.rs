//! Plan::run against `tigris run` on the same plan and input, graph I/O against what
//! mnist8.onnx declares, and the errors of bad input.
#[allow(dead_code)] // run.rs uses cli(), not the JSON reader
mod support;

use std::path::{Path, PathBuf};
use std::process::Command;

use tigris::{status, Budgets, DType, Input, Model, Plan, RunOptions, TensorData};

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

/// The header (dict text) and data section of a .npy file (format 1.0 or 2.0).
fn npy_split(raw: &[u8]) -> (&str, &[u8]) {
    assert_eq!(&raw[..6], b"\x93NUMPY", "not a .npy file");
    let (start, len) = if raw[6] == 1 {
        (10, u16::from_le_bytes([raw[8], raw[9]]) as usize)
    } else {
        (
            12,
            u32::from_le_bytes([raw[8], raw[9], raw[10], raw[11]]) as usize,
        )
    };
    (
        std::str::from_utf8(&raw[start..start + len]).unwrap(),
        &raw[start + len..],
    )
}

/// A fresh scratch folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tigris_rust_{name}_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `tigris run PLAN --input x.npy --output y.npy [extra]`: the header and data of y.npy.
fn cli_run(plan: &Path, x: &[u8], dir: &Path, extra: &[&str]) -> (String, Vec<u8>) {
    std::fs::write(dir.join("x.npy"), x).unwrap();
    let out = Command::new(support::cli())
        .arg("run")
        .arg(plan)
        .arg("--input")
        .arg(dir.join("x.npy"))
        .arg("--output")
        .arg(dir.join("y.npy"))
        .args(extra)
        .output()
        .expect("running the tigris CLI");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let raw = std::fs::read(dir.join("y.npy")).unwrap();
    let (header, data) = npy_split(&raw);
    (header.to_string(), data.to_vec())
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
    let x: Vec<f32> = (0..28 * 28).map(|i| (0.37 * i as f32).sin()).collect();
    // 64K: the whole network in SRAM; 16K: tiled stages. Weights in flash (xip) for both.
    for fast in ["64K", "16K"] {
        let plan = compile(fast);
        let dir = scratch(&format!("run_{fast}"));
        let plan_path = dir.join("p.tgrs");
        plan.save(&plan_path).unwrap();
        let (header, want) = cli_run(&plan_path, &npy(&[1, 1, 28, 28], &x), &dir, &[]);
        assert!(
            header.contains("'<f4'") && header.contains("(1, 10)"),
            "{header}"
        );
        assert_eq!(want.len(), 40);

        let loaded = Plan::from_file(&plan_path).unwrap();
        let from_bytes = Plan::from_bytes(&plan.emit().unwrap()).unwrap();
        assert_eq!(from_bytes.emit().unwrap(), plan.emit().unwrap(), "{fast}");
        for (what, p) in [
            ("compiled", &plan),
            ("loaded", &loaded),
            ("from bytes", &from_bytes),
        ] {
            let (outputs, stats) = p.run(&[Input::F32(&x)]).unwrap();
            assert_eq!(outputs.len(), 1);
            assert_eq!(outputs[0].name, "Plus214_Output_0");
            assert_eq!(outputs[0].shape, vec![1, 10]);
            let TensorData::F32(y) = &outputs[0].data else {
                panic!("{what} {fast}: {:?}", outputs[0].data)
            };
            assert!(y.iter().any(|&v| v != 0.0), "{what} {fast}: all zero");
            assert_eq!(
                outputs[0].data.to_bytes(),
                want,
                "{fast} {what} plan: bytes differ from tigris run"
            );
            assert_eq!(
                stats.fast_arena_bytes,
                p.fast_arena_bytes(),
                "{fast} {what}"
            );
            assert!(
                stats.fast_hwm_bytes > 0 && stats.fast_hwm_bytes <= stats.fast_arena_bytes,
                "{fast} {what}: {stats:?}"
            );
        }
        std::fs::remove_dir_all(&dir).ok();
    }
}

#[test]
fn int8_plan_quantizes_f32_inputs_and_dequantizes_on_request() {
    // mnist8 quantized to int8 QDQ by tests/models/make_qdq_models.py (built with the library).
    let dir = std::env::var("TIGRIS_BUILD_DIR").expect("TIGRIS_BUILD_DIR (ctest sets it)");
    let path = PathBuf::from(dir).join("test-models/mnist8.int8.onnx");
    let plan = Model::load(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .plan(&Budgets::fast("64K"), true, false)
        .unwrap();
    let spec = &plan.inputs().unwrap()[0];
    assert_eq!(spec.dtype, DType::I8);
    assert_eq!(spec.shape, vec![1, 1, 28, 28]);
    assert_eq!((spec.scales.len(), spec.zero_points.len()), (1, 1));
    let out_spec = &plan.outputs().unwrap()[0];
    assert_eq!((out_spec.dtype, out_spec.scales.len()), (DType::I8, 1));

    // Values on the input's quantization grid: quantizing them gives back q exactly.
    let (scale, zero) = (spec.scales[0], spec.zero_points[0]);
    let q: Vec<i8> = (0..784).map(|i| ((i * 37) % 256) as u8 as i8).collect();
    let x: Vec<f32> = q
        .iter()
        .map(|&v| (v as i32 - zero) as f32 * scale)
        .collect();
    let (yq, stats) = plan.run(&[Input::F32(&x)]).unwrap();
    let (from_q, _) = plan.run(&[Input::I8(&q)]).unwrap();
    assert_eq!(
        yq, from_q,
        "f32 input quantized by the library != the same int8 input"
    );
    let TensorData::I8(yq) = &yq[0].data else {
        panic!("{:?}", yq[0].data)
    };
    assert!(stats.fast_hwm_bytes > 0);

    let deq = RunOptions {
        dequantize: true,
        ..Default::default()
    };
    let (yf, _) = plan.run_with(&[Input::F32(&x)], &deq).unwrap();
    let TensorData::F32(yf) = &yf[0].data else {
        panic!("{:?}", yf[0].data)
    };
    // ONNX DequantizeLinear with the output's scale and zero point.
    let (oscale, ozero) = (out_spec.scales[0], out_spec.zero_points[0]);
    for (f, q) in yf.iter().zip(yq) {
        assert!((f - (*q as i32 - ozero) as f32 * oscale).abs() <= 1e-6 * f.abs().max(1.0));
    }

    let dir = scratch("int8");
    let plan_path = dir.join("q.tgrs");
    plan.save(&plan_path).unwrap();
    let (header, want) = cli_run(&plan_path, &npy(&[1, 1, 28, 28], &x), &dir, &[]);
    assert!(header.contains("'|i1'"), "{header}");
    let got: Vec<u8> = yq.iter().map(|&v| v as u8).collect();
    assert_eq!(got, want, "int8 output differs from tigris run");
    let (header, want) = cli_run(
        &plan_path,
        &npy(&[1, 1, 28, 28], &x),
        &dir,
        &["--dequantize"],
    );
    assert!(header.contains("'<f4'"), "{header}");
    assert_eq!(
        TensorData::F32(yf.clone()).to_bytes(),
        want,
        "dequantized output differs from tigris run --dequantize"
    );
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
    let err = plan.run(&[Input::F32(&x), Input::F32(&x)]).unwrap_err();
    assert_eq!(err.status(), status::INVALID_ARGUMENT);
    let err = plan.run(&[Input::F32(&x[..100])]).unwrap_err();
    assert_eq!(err.status(), status::INVALID_ARGUMENT);
    assert!(
        err.message().contains("needs 784 elements, got 100"),
        "{err}"
    );
    let err = plan.run(&[Input::I8(&[0i8; 784])]).unwrap_err();
    assert_eq!(err.status(), status::INVALID_ARGUMENT);
    assert!(err.message().contains("is F32; got I8"), "{err}");
    // Arenas smaller than the plan needs: refused by the library, not by this crate.
    let options = RunOptions {
        fast_bytes: plan.fast_arena_bytes() - 16,
        ..Default::default()
    };
    let err = plan.run_with(&[Input::F32(&x)], &options).unwrap_err();
    assert_eq!(err.status(), status::INVALID_ARGUMENT);
    assert!(err.message().contains("TGRS_ERR_ARENA_TOO_SMALL"), "{err}");
    assert!(plan.run(&[Input::F32(&x)]).is_ok(), "the plan still runs");

    let mut data = plan.emit().unwrap();
    data[5] ^= 0x20; // the file identifier "TGRS"
    let err = Plan::from_bytes(&data).unwrap_err();
    assert_eq!(err.status(), status::INVALID_PLAN);
    assert!(err.message().contains("TGRS_ERR_BAD_IDENTIFIER"), "{err}");
    let truncated = plan.emit().unwrap();
    let err = Plan::from_bytes(&truncated[..truncated.len() / 2]).unwrap_err();
    assert_eq!(err.status(), status::INVALID_PLAN, "{err}");
    assert_eq!(
        Plan::from_bytes(&[]).unwrap_err().status(),
        status::INVALID_ARGUMENT
    );
    let err = Plan::from_file("/nonexistent/p.tgrs").unwrap_err();
    assert_eq!(err.status(), status::IO);
    assert!(err.message().contains("/nonexistent/p.tgrs"), "{err}");
}
