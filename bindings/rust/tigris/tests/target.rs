//! Planning for a part's memories against `tigris compile --target --rules` (an independent
//! client of the C ABI): the same bytes, the same memory table.
mod support;

use std::path::PathBuf;
use std::process::Command;

use support::json::{self, Json};
use tigris::{Model, Target};

const PART: &str = "memories:\n  - {name: DTCM, size: 64K}\n  - {name: SRAM, size: 512K}\n  \
                    - {name: FLASH, size: 4M, read_only: true}\n";
const RULES: &str = "tensors:\n  - type: CONSTANT\n    attributes: { memory: FLASH }\n  \
                     - id: no_such_tensor\n    attributes: { memory: SRAM }\n";

fn model_path() -> PathBuf {
    let dir = std::env::var("TIGRIS_MODELS_DIR").expect("TIGRIS_MODELS_DIR (ctest sets it)");
    PathBuf::from(dir).join("onnx/vww_mobilenetv1_025_96.onnx")
}

#[test]
fn plan_for_target_matches_cli_compile() {
    let dir = std::env::temp_dir().join(format!("tigris-rust-target-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (part, rules, out) = (
        dir.join("part.yaml"),
        dir.join("rules.yaml"),
        dir.join("cli.tgrs"),
    );
    std::fs::write(&part, PART).unwrap();
    std::fs::write(&rules, RULES).unwrap();
    let st = Command::new(support::cli())
        .arg("compile")
        .arg(model_path())
        .arg("--target")
        .arg(&part)
        .arg("--rules")
        .arg(&rules)
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        st.status.success(),
        "{}",
        String::from_utf8_lossy(&st.stderr)
    );
    let printed = String::from_utf8(st.stdout).unwrap();
    let want = std::fs::read(&out).unwrap();

    let model = Model::load(model_path()).unwrap();
    let target = Target::from_files(&part, Some(rules.as_path())).unwrap();
    let plan = model.plan_for_target(&target, false, false).unwrap();
    assert!(
        plan.emit().unwrap() == want,
        "plan bytes differ from `tigris compile --target`"
    );
    // The table: each memory's used bytes as the CLI prints them (name size used ...).
    let memories = json::parse(&plan.memories_json());
    let names: Vec<&str> = (0..memories.len())
        .map(|i| at(&memories, i).get("name").str())
        .collect();
    assert_eq!(names, ["DTCM", "SRAM", "FLASH"]);
    for i in 0..memories.len() {
        let m = at(&memories, i);
        let line = printed
            .lines()
            .find(|l| l.starts_with(&format!("{} ", m.get("name").str())));
        let fields: Vec<&str> = line.unwrap_or("").split_whitespace().collect();
        assert_eq!(
            fields.get(2).copied(),
            Some(format!("{}", m.get("used_bytes").num()).as_str())
        );
        assert_eq!(m.get("peak_bytes"), m.get("used_bytes"));
    }
    let warnings = plan.warnings();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].contains("id 'no_such_tensor' matches no tensor"));
    plan.check_target(&target).unwrap();
    let small = Target::new(&PART.replace("64K", "16"), "small.yaml").unwrap();
    let err = plan.check_target(&small).unwrap_err();
    assert_eq!(err.status_name(), "TIGRIS_ERR_DOES_NOT_FIT");
    assert!(
        err.message().contains("memory DTCM holds scratch"),
        "{}",
        err.message()
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_targets_are_named_errors() {
    let model = Model::load(model_path()).unwrap();
    let bad = Target::new("memories:\n  - {name: DTCM}\n", "part.yaml").unwrap();
    let err = model.plan_for_target(&bad, false, false).unwrap_err();
    assert_eq!(err.status_name(), "TIGRIS_ERR_INVALID_ARGUMENT");
    assert!(err.message().contains("part.yaml:2:"), "{}", err.message());
    let missing = Target::from_files("/nonexistent/part.yaml", None).unwrap_err();
    assert_eq!(missing.status_name(), "TIGRIS_ERR_IO");
}

fn at(array: &Json, i: usize) -> &Json {
    match array {
        Json::Arr(items) => &items[i],
        other => panic!("not an array: {other:?}"),
    }
}
