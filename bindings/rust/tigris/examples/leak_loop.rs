//! Run under valgrind by ctest (bindings_rust_leaks): load / analyze / plan / emit / drop a
//! few times, plus a failed load. Every handle must be released by Drop.
//! usage: leak_loop MODEL.onnx [--leak]
use tigris::{Budgets, Model};

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
    }
    if std::env::args().nth(2).as_deref() == Some("--leak") {
        // Negative control (bindings_rust_leaks_negative_control): a handle nobody drops
        // must be reported, proving the check can fail.
        std::mem::forget(Model::load(&path).expect("load"));
    }
    println!("leak_loop: done");
}
