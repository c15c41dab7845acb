package tigris

// native.go: the calls into the SWIG layer (internal/swig, generated from bindings/tigris.i).
// Each failing call reads tigris_last_error on the same OS thread: libtigris keeps the last
// message per thread and goroutines move between threads, hence LockOSThread.

import (
	"runtime"

	"tigris.local/tigris/internal/swig"
)

type (
	modelHandle    = swig.Struct_SS_tigris_model
	analysisHandle = swig.Struct_SS_tigris_analysis
	planHandle     = swig.Struct_SS_tigris_execution_plan
)

// call runs f (one libtigris call returning a status) and turns a failure into *Error.
func call(f func() swig.Enum_SS_tigris_status) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if status := f(); status != swig.TIGRIS_OK {
		return &Error{Status: Status(status), Message: swig.Tigris_last_error()}
	}
	return nil
}

func statusName(s Status) string { return swig.Tigris_status_name(swig.Enum_SS_tigris_status(s)) }

func parseSize(text string) (uint64, error) {
	out := []uint64{0}
	err := call(func() swig.Enum_SS_tigris_status { return swig.Tigris_parse_size(out, text) })
	return out[0], err
}

func load(path string) (modelHandle, error) {
	out := []uintptr{0}
	if err := call(func() swig.Enum_SS_tigris_status { return swig.Tigris_load(out, path, nil) }); err != nil {
		return nil, err
	}
	return swig.SwigcptrStruct_SS_tigris_model(out[0]), nil
}

func loadFromMemory(data []byte) (modelHandle, error) {
	out := []uintptr{0}
	err := call(func() swig.Enum_SS_tigris_status { return swig.Tigris_load_from_memory(out, data, nil) })
	if err != nil {
		return nil, err
	}
	return swig.SwigcptrStruct_SS_tigris_model(out[0]), nil
}

func analyze(m modelHandle, b Budgets) (analysisHandle, error) {
	o := swig.NewTigris_analyze_options()
	defer swig.DeleteTigris_analyze_options(o)
	out := []uintptr{0}
	err := call(func() swig.Enum_SS_tigris_status {
		return swig.Tigris_analyze_options_init(o, swig.TIGRIS_ANALYZE_OPTIONS_VERSION)
	})
	if err != nil {
		return nil, err
	}
	o.SetFast_bytes(b.Fast)
	o.SetSlow_bytes(b.Slow)
	o.SetFlash_bytes(b.Flash)
	if err := call(func() swig.Enum_SS_tigris_status { return swig.Tigris_analyze(out, m, o) }); err != nil {
		return nil, err
	}
	return swig.SwigcptrStruct_SS_tigris_analysis(out[0]), nil
}

func makePlan(m modelHandle, b Budgets, po PlanOptions) (planHandle, error) {
	o := swig.NewTigris_plan_options()
	defer swig.DeleteTigris_plan_options(o)
	out := []uintptr{0}
	err := call(func() swig.Enum_SS_tigris_status {
		return swig.Tigris_plan_options_init(o, swig.TIGRIS_PLAN_OPTIONS_VERSION)
	})
	if err != nil {
		return nil, err
	}
	o.SetFast_bytes(b.Fast)
	o.SetSlow_bytes(b.Slow)
	o.SetFlash_bytes(b.Flash)
	o.SetXip(0)
	if po.XIP {
		o.SetXip(1)
	}
	o.SetCompression(swig.TIGRIS_COMPRESSION_NONE)
	if po.LZ4 {
		o.SetCompression(swig.TIGRIS_COMPRESSION_LZ4)
	}
	if err := call(func() swig.Enum_SS_tigris_status { return swig.Tigris_plan(out, m, o) }); err != nil {
		return nil, err
	}
	return swig.SwigcptrStruct_SS_tigris_execution_plan(out[0]), nil
}

// emit copies the .tgrs bytes out of the library's buffer and releases it (tigris_free).
func emit(p planHandle) ([]byte, error) {
	data, size := []uintptr{0}, []uint64{0}
	if err := call(func() swig.Enum_SS_tigris_status { return swig.Tigris_emit(data, size, p) }); err != nil {
		return nil, err
	}
	defer swig.Tigris_free(data[0])
	return swig.CopyBytes(data[0], size[0]), nil
}
