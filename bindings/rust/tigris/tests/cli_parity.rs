//! The Rust binding against the `tigris` CLI on the same model and budgets: the CLI is an
//! independent client of the C ABI, so its output is the expected value.
mod support;

use std::path::{Path, PathBuf};
use std::process::Command;

use support::json::{self, Json};
use tigris::{Budgets, Layout, Model, Objective, Verdict};

fn model_path() -> PathBuf {
    let dir = std::env::var("TIGRIS_MODELS_DIR").expect("TIGRIS_MODELS_DIR (ctest sets it)");
    PathBuf::from(dir).join("onnx/vww_mobilenetv1_025_96.onnx")
}

fn cli() -> PathBuf {
    support::cli()
}

fn cli_analysis() -> (String, Json) {
    cli_analyze(&model_path(), &["-m", "64K", "--json"])
}

/// `tigris analyze MODEL ARGS...`: its stdout, and parsed as JSON.
fn cli_analyze(model: &Path, args: &[&str]) -> (String, Json) {
    let out = Command::new(cli())
        .args(["analyze"])
        .arg(model)
        .args(args)
        .output()
        .expect("running the tigris CLI");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let doc = json::parse(&text);
    (text, doc)
}

fn verdict_name(v: Verdict) -> &'static str {
    // The JSON spelling of tigris_verdict (docs/json.md).
    match v {
        Verdict::Ok => "ok",
        Verdict::Partitioned => "partitioned",
        Verdict::Tiled => "tiled",
        Verdict::NeedsWork => "needs_work",
    }
}

#[test]
fn analyze_headline_numbers_match_cli() {
    let (text, doc) = cli_analysis();
    let model = Model::load(model_path()).unwrap();
    let a = model.analyze(&Budgets::fast("64K")).unwrap();
    assert_eq!(
        a.scheduled_peak_bytes() as f64,
        doc.get("scheduled_peak_bytes").num()
    );
    assert_eq!(verdict_name(a.verdict()), doc.get("verdict").str());
    assert_eq!(a.stage_count(), doc.get("stages").len());
    assert_eq!(
        a.naive_peak_bytes() as f64,
        doc.get("memory").get("naive_peak_bytes").num()
    );
    // And the whole report: the CLI prints tigris_analysis_json plus a newline.
    assert_eq!(a.json().trim_end(), text.trim_end());
}

// The verdict is a promise: weights over the flash budget make a plan whose stages fit one
// that compile refuses, so the analysis says needs_work and carries compile's error.
#[test]
fn a_refused_plan_is_needs_work_with_compiles_error() {
    let model = Model::load(model_path()).unwrap();
    let mut budgets = Budgets::fast("64K");
    budgets.flash = Some("100K".into());
    let refused = model.analyze(&budgets).unwrap();
    assert_eq!(verdict_name(refused.verdict()), "needs_work");
    let error = refused.refusal().expect("a refusal");
    assert_eq!(error.status_name(), "TIGRIS_ERR_FLASH_BUDGET_TOO_SMALL");
    assert!(error.message().contains("flash budget"), "{}", error.message());
    assert!(model.analyze(&Budgets::fast("64K")).unwrap().refusal().is_none());
}

#[test]
fn numeric_and_text_budgets_agree() {
    let model = Model::load(model_path()).unwrap();
    let by_text = model.analyze(&Budgets::fast("64K")).unwrap();
    let by_num = model.analyze(&Budgets::fast(64u64 * 1024)).unwrap();
    assert_eq!(by_text.json(), by_num.json());
}

#[test]
fn plan_bytes_match_cli_compile() {
    let dir = std::env::temp_dir().join(format!("tigris-rust-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("cli.tgrs");
    let st = Command::new(cli())
        .arg("compile")
        .arg(model_path())
        .args(["-m", "64K", "--xip", "-o"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        st.status.success(),
        "{}",
        String::from_utf8_lossy(&st.stderr)
    );
    let want = std::fs::read(&out).unwrap();

    let model = Model::load(model_path()).unwrap();
    let plan = model.plan(&Budgets::fast("64K"), true, false).unwrap();
    let got = plan.emit().unwrap();
    assert_eq!(plan.file_bytes() as usize, got.len());
    assert!(
        got == want,
        "plan bytes differ from `tigris compile` ({} vs {})",
        got.len(),
        want.len()
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn from_bytes_equals_from_path() {
    let bytes = std::fs::read(model_path()).unwrap();
    let a = Model::from_bytes(&bytes)
        .unwrap()
        .analyze(&Budgets::fast("64K"))
        .unwrap();
    let b = Model::load(model_path())
        .unwrap()
        .analyze(&Budgets::fast("64K"))
        .unwrap();
    assert_eq!(a.scheduled_peak_bytes(), b.scheduled_peak_bytes());
}

#[test]
fn bad_path_is_io_error() {
    let err = Model::load("/nonexistent/dir/model.onnx").unwrap_err();
    assert_eq!(err.status(), 2); // TIGRIS_ERR_IO, pinned in tigris.h
    assert_eq!(err.status(), tigris::status::IO);
    assert_eq!(err.status_name(), "TIGRIS_ERR_IO");
    assert!(!err.message().is_empty());
}

#[test]
fn empty_bytes_is_empty_model() {
    assert_eq!(Model::from_bytes(&[]).unwrap_err().status(), 3); // TIGRIS_ERR_EMPTY_MODEL
}

#[test]
fn bad_size_is_invalid_argument() {
    let model = Model::load(model_path()).unwrap();
    let err = model.analyze(&Budgets::fast("lots")).unwrap_err();
    assert_eq!(err.status(), 1); // TIGRIS_ERR_INVALID_ARGUMENT
}

#[test]
fn parse_size_binary_units() {
    assert_eq!(tigris::parse_size("256K").unwrap(), 262_144);
    assert_eq!(tigris::parse_size("1.5MiB").unwrap(), 1_572_864);
    assert!(tigris::parse_size("").is_err());
}

#[test]
fn exact_layout_matches_cli_and_beats_greedy_on_cifar() {
    let dir = std::env::var("TIGRIS_MODELS_DIR").expect("TIGRIS_MODELS_DIR (ctest sets it)");
    let path = PathBuf::from(dir).join("onnx/cifar_mobilenet_relu6.onnx");
    let peak = |args: &[&str]| cli_analyze(&path, args).1.get("scheduled_peak_bytes").num();
    let (greedy, exact) = (
        peak(&["-m", "64M", "--json"]),
        peak(&[
            "-m",
            "64M",
            "--json",
            "--layout",
            "exact",
            "--time-limit",
            "30",
        ]),
    );
    let model = Model::load(&path).unwrap();
    let budgets = Budgets::fast("64M").with_layout(Layout::Exact {
        time_limit_seconds: 30.0,
    });
    let a = model.analyze(&budgets).unwrap();
    assert_eq!(a.scheduled_peak_bytes() as f64, exact);
    assert!(exact < greedy);
    let bad = Budgets::fast("64M").with_layout(Layout::Exact {
        time_limit_seconds: 0.0,
    });
    let err = model.analyze(&bad).unwrap_err();
    assert_eq!(err.status(), tigris::status::INVALID_ARGUMENT);
}

#[test]
fn objectives_match_cli() {
    let dir = std::env::var("TIGRIS_MODELS_DIR").expect("TIGRIS_MODELS_DIR (ctest sets it)");
    let path = PathBuf::from(dir).join("onnx/kws_small_cnn.onnx");
    let model = Model::load(&path).unwrap();
    for (flag, objective) in [
        (
            "memory",
            Objective::Memory {
                max_recompute_percent: None,
            },
        ),
        (
            "latency",
            Objective::Latency {
                max_recompute_percent: Some(0.0),
            },
        ),
    ] {
        let mut args = vec!["-m", "16K", "--json", "--objective", flag];
        if flag == "latency" {
            args.extend(["--max-recompute", "0"]);
        }
        let (_, doc) = cli_analyze(&path, &args);
        let budgets = Budgets::fast("16K").with_objective(objective);
        let a = model.analyze(&budgets).unwrap();
        assert_eq!(
            a.scheduled_peak_bytes() as f64,
            doc.get("scheduled_peak_bytes").num()
        );
        let mine = json::parse(&a.json());
        let (theirs, ours) = (doc.get("exploration"), mine.get("exploration"));
        assert_eq!(ours.get("objective").str(), flag);
        assert_eq!(ours.get("chosen").num(), theirs.get("chosen").num());
        assert_eq!(ours.get("passes").num(), theirs.get("passes").num());
        let plan = model.plan(&budgets, true, false).unwrap();
        let explored = json::parse(&plan.exploration_json());
        assert_eq!(explored.get("chosen").num(), theirs.get("chosen").num());
    }
    let one_pass = model.plan(&Budgets::fast("16K"), true, false).unwrap();
    assert_eq!(one_pass.exploration_json(), "null");
    let bad = Budgets::fast("16K").with_objective(Objective::Memory {
        max_recompute_percent: Some(f64::NAN),
    });
    let err = model.analyze(&bad).unwrap_err();
    assert_eq!(err.status(), tigris::status::INVALID_ARGUMENT);
}
