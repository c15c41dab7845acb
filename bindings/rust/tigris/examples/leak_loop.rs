//! Run under valgrind by ctest (bindings_rust_leaks): load / analyze / plan / emit /
//! Plan::from_bytes / run / drop a few times, plus a failed load and a refused plan. Every
//! handle must be released by Drop.
//! usage: leak_loop MODEL.onnx [--leak]
use tigris::{Budgets, Input, Model, Plan};

fn main() {
    let path = std::env::args()
        .nth(1)
        .expect("usage: leak_loop MODEL.onnx");
    for _ in 0..2 {
        let model = Model::load(&path).expect("load");
        let analysis = model.analyze(&Budgets::fast("64K")).expect("analyze");
        assert!(analysis.scheduled_peak_bytes() > 0);
        let bytes = model
            .plan(&Budgets::fast("64K"), true, false)
            .expect("plan")
            .emit()
            .expect("emit");
        assert!(!bytes.is_empty());
        assert!(Model::load(format!("{path}.missing")).is_err());
        // A plan handle from the bytes, its graph inputs, one run, and a refused plan.
        let plan = Plan::from_bytes(&bytes).expect("from_bytes");
        let x = vec![0.5f32; plan.inputs().expect("inputs")[0].elements()];
        let (outputs, _) = plan.run(&[Input::F32(&x)]).expect("run");
        assert_eq!(outputs.len(), plan.outputs().expect("outputs").len());
        assert!(Plan::from_bytes(&bytes[..bytes.len() / 2]).is_err());
    }
    if std::env::args().nth(2).as_deref() == Some("--leak") {
        // Negative control (bindings_rust_leaks_negative_control): a handle nobody drops
        // must be reported, proving the check can fail.
        std::mem::forget(Model::load(&path).expect("load"));
    }
    println!("leak_loop: done");
}
