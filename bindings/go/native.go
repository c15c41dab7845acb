package tigris

// native.go: every call into libtigris, through cgo over include/tigris.h (found with
// pkg-config: `#cgo pkg-config: tigris`). Each failing call reads tigris_last_error on the
// same OS thread: libtigris keeps the last message per thread and goroutines move between
// threads, hence LockOSThread.

/*
#cgo pkg-config: tigris
#include <stdlib.h>
#include <tigris.h>
*/
import "C"

import (
	"runtime"
	"unsafe"
)

type (
	modelHandle    = *C.tigris_model
	analysisHandle = *C.tigris_analysis
	planHandle     = *C.tigris_execution_plan
)

// call runs f (one libtigris call returning a status) and turns a failure into *Error.
func call(f func() C.tigris_status) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if status := f(); status != C.TIGRIS_OK {
		return &Error{Status: Status(status), Message: C.GoString(C.tigris_last_error())}
	}
	return nil
}

func statusName(s Status) string { return C.GoString(C.tigris_status_name(C.tigris_status(s))) }

func version() string { return C.GoString(C.tigris_version()) }

func parseSize(text string) (uint64, error) {
	ctext := C.CString(text)
	defer C.free(unsafe.Pointer(ctext))
	var out C.uint64_t
	err := call(func() C.tigris_status { return C.tigris_parse_size(&out, ctext) })
	return uint64(out), err
}

func load(path string) (modelHandle, error) {
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	var out modelHandle
	err := call(func() C.tigris_status { return C.tigris_load(&out, cpath, nil) })
	return out, err
}

// cBytes copies data into C memory (the library copies it again; Go memory may move).
func cBytes(data []byte) (unsafe.Pointer, C.size_t) {
	if len(data) == 0 {
		return nil, 0
	}
	return C.CBytes(data), C.size_t(len(data))
}

func loadFromMemory(data []byte) (modelHandle, error) {
	p, n := cBytes(data)
	defer C.free(p)
	var out modelHandle
	err := call(func() C.tigris_status { return C.tigris_load_from_memory(&out, p, n, nil) })
	return out, err
}

func analyze(m modelHandle, b Budgets) (analysisHandle, error) {
	var o C.tigris_analyze_options
	if err := call(func() C.tigris_status {
		return C.tigris_analyze_options_init(&o, C.TIGRIS_ANALYZE_OPTIONS_VERSION)
	}); err != nil {
		return nil, err
	}
	o.fast_bytes, o.slow_bytes, o.flash_bytes = C.uint64_t(b.Fast), C.uint64_t(b.Slow), C.uint64_t(b.Flash)
	o.layout = C.tigris_layout(b.Layout)
	if b.TimeLimit != 0 {
		o.time_limit_seconds = C.double(b.TimeLimit)
	}
	o.objective = C.tigris_objective(b.Objective)
	if b.MaxRecompute != nil {
		o.max_recompute_percent = C.double(*b.MaxRecompute)
	}
	var out analysisHandle
	err := call(func() C.tigris_status { return C.tigris_analyze(&out, m, &o) })
	return out, err
}

func makePlan(m modelHandle, b Budgets, po PlanOptions) (planHandle, error) {
	o, err := planOptions(b, po)
	if err != nil {
		return nil, err
	}
	var out planHandle
	err = call(func() C.tigris_status { return C.tigris_plan(&out, m, &o) })
	return out, err
}

// planOptions is a tigris_plan_options for po, with budgets b.
func planOptions(b Budgets, po PlanOptions) (C.tigris_plan_options, error) {
	var o C.tigris_plan_options
	if err := call(func() C.tigris_status {
		return C.tigris_plan_options_init(&o, C.TIGRIS_PLAN_OPTIONS_VERSION)
	}); err != nil {
		return o, err
	}
	o.fast_bytes, o.slow_bytes, o.flash_bytes = C.uint64_t(b.Fast), C.uint64_t(b.Slow), C.uint64_t(b.Flash)
	o.layout = C.tigris_layout(b.Layout)
	if b.TimeLimit != 0 {
		o.time_limit_seconds = C.double(b.TimeLimit)
	}
	o.objective = C.tigris_objective(b.Objective)
	if b.MaxRecompute != nil {
		o.max_recompute_percent = C.double(*b.MaxRecompute)
	}
	o.xip = 0
	if po.XIP {
		o.xip = 1
	}
	o.compression = C.TIGRIS_COMPRESSION_NONE
	if po.LZ4 {
		o.compression = C.TIGRIS_COMPRESSION_LZ4
	}
	return o, nil
}

func makePlanForTarget(m modelHandle, t Target, po PlanOptions) (planHandle, error) {
	o, err := planOptions(Budgets{}, po)
	if err != nil {
		return nil, err
	}
	// C copies of the strings, alive for the call only (the library keeps none).
	yaml, source := C.CString(t.YAML), C.CString(t.Source)
	defer C.free(unsafe.Pointer(yaml))
	defer C.free(unsafe.Pointer(source))
	if t.Rules != "" {
		rules, rulesSource := C.CString(t.Rules), C.CString(t.RulesSource)
		defer C.free(unsafe.Pointer(rules))
		defer C.free(unsafe.Pointer(rulesSource))
		o.rules_yaml, o.rules_source = rules, rulesSource
	}
	var out planHandle
	err = call(func() C.tigris_status { return C.tigris_plan_for_target(&out, m, &o, yaml, source) })
	return out, err
}

func planMemoriesJSON(p planHandle) string { return C.GoString(C.tigris_plan_memories_json(p)) }
func planWarnings(p planHandle) string     { return C.GoString(C.tigris_plan_warnings(p)) }
func planExplorationJSON(p planHandle) string {
	return C.GoString(C.tigris_plan_exploration_json(p))
}

func planFromMemory(data []byte) (planHandle, error) {
	p, n := cBytes(data)
	defer C.free(p)
	var out planHandle
	err := call(func() C.tigris_status { return C.tigris_plan_from_memory(&out, p, n) })
	return out, err
}

func planFromFile(path string) (planHandle, error) {
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	var out planHandle
	err := call(func() C.tigris_status { return C.tigris_plan_from_file(&out, cpath) })
	return out, err
}

// emit copies the .tgrs bytes out of the library's buffer and releases it (tigris_free).
func emit(p planHandle) ([]byte, error) {
	var data unsafe.Pointer
	var size C.size_t
	if err := call(func() C.tigris_status { return C.tigris_emit(&data, &size, p) }); err != nil {
		return nil, err
	}
	defer C.tigris_free(data)
	return append([]byte(nil), unsafe.Slice((*byte)(data), int(size))...), nil
}

func emitToFile(p planHandle, path string) error {
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	return call(func() C.tigris_status { return C.tigris_emit_to_file(p, cpath) })
}

// tensorInfo converts what a tigris_*_input / _output / tensor call filled in.
func tensorInfo(fill func(*C.tigris_tensor_info) C.tigris_status) (TensorInfo, error) {
	var info C.tigris_tensor_info
	info.version = C.TIGRIS_TENSOR_INFO_VERSION
	if err := call(func() C.tigris_status { return fill(&info) }); err != nil {
		return TensorInfo{}, err
	}
	t := TensorInfo{Name: C.GoString(info.name), DType: DType(info.dtype)}
	if info.rank > 0 {
		t.Shape = append([]int64(nil), unsafe.Slice((*int64)(unsafe.Pointer(info.shape)), info.rank)...)
	}
	if info.num_scales > 0 {
		t.Scales = append([]float32(nil), unsafe.Slice((*float32)(unsafe.Pointer(info.scales)), info.num_scales)...)
		t.ZeroPoints = append([]int32(nil), unsafe.Slice((*int32)(unsafe.Pointer(info.zero_points)), info.num_scales)...)
	}
	return t, nil
}

func modelTensors(m modelHandle, outputs bool) ([]TensorInfo, error) {
	count := C.tigris_model_input_count(m)
	if outputs {
		count = C.tigris_model_output_count(m)
	}
	infos := make([]TensorInfo, 0, int(count))
	for i := C.size_t(0); i < count; i++ {
		index := C.tigris_model_input(m, i)
		if outputs {
			index = C.tigris_model_output(m, i)
		}
		t, err := tensorInfo(func(info *C.tigris_tensor_info) C.tigris_status {
			return C.tigris_model_tensor(m, C.size_t(index), info)
		})
		if err != nil {
			return nil, err
		}
		infos = append(infos, t)
	}
	return infos, nil
}

func planTensors(p planHandle, outputs bool) ([]TensorInfo, error) {
	count := C.tigris_plan_input_count(p)
	if outputs {
		count = C.tigris_plan_output_count(p)
	}
	infos := make([]TensorInfo, 0, int(count))
	for i := C.size_t(0); i < count; i++ {
		t, err := tensorInfo(func(info *C.tigris_tensor_info) C.tigris_status {
			if outputs {
				return C.tigris_plan_output(p, i, info)
			}
			return C.tigris_plan_input(p, i, info)
		})
		if err != nil {
			return nil, err
		}
		infos = append(infos, t)
	}
	return infos, nil
}

// runPlan runs p on the host runtime. cgo forbids storing Go pointers in C memory, so the
// tigris_run_io array and every buffer it points to are C memory: the inputs are copied in
// before the call and the outputs copied out after it (they are small next to the run).
func runPlan(p planHandle, in []Tensor, out []Tensor, o RunOptions) (RunStats, error) {
	n := len(in) + len(out)
	ios := unsafe.Slice((*C.tigris_run_io)(C.malloc(C.size_t(n+1)*C.sizeof_tigris_run_io)), n+1)
	defer C.free(unsafe.Pointer(&ios[0]))
	buffers := make([]unsafe.Pointer, 0, n)
	defer func() {
		for _, b := range buffers {
			C.free(b)
		}
	}()
	fill := func(slot int, t Tensor) {
		buf := C.malloc(C.size_t(len(t.Data) + 1)) // + 1: never malloc(0)
		copy(unsafe.Slice((*byte)(buf), len(t.Data)), t.Data)
		buffers = append(buffers, buf)
		ios[slot] = C.tigris_run_io{version: C.TIGRIS_RUN_IO_VERSION, dtype: C.tigris_dtype(t.DType),
			data: buf, size: C.size_t(len(t.Data))}
	}
	for i, t := range in {
		fill(i, t)
	}
	for i, t := range out {
		fill(len(in)+i, t)
	}
	options := C.tigris_run_options{version: C.TIGRIS_RUN_OPTIONS_VERSION,
		fast_bytes: C.uint64_t(o.FastBytes), slow_bytes: C.uint64_t(o.SlowBytes)}
	stats := C.tigris_run_stats{version: C.TIGRIS_RUN_STATS_VERSION}
	err := call(func() C.tigris_status {
		return C.tigris_plan_run(p, &options, &ios[0], C.size_t(len(in)), &ios[len(in)], C.size_t(len(out)), &stats)
	})
	if err != nil {
		return RunStats{}, err
	}
	for i := range out {
		copy(out[i].Data, unsafe.Slice((*byte)(ios[len(in)+i].data), len(out[i].Data)))
	}
	return RunStats{
		FastArenaBytes: uint64(stats.fast_arena_bytes), SlowArenaBytes: uint64(stats.slow_arena_bytes),
		FastHighWaterBytes: uint64(stats.fast_hwm_bytes), SlowHighWaterBytes: uint64(stats.slow_hwm_bytes),
		RunSeconds: float64(stats.run_seconds),
	}, nil
}
