// Package capi is the raw cgo layer over include/tigris.h. It only converts types; the
// idiomatic API (values, error, Close) is package tigris one folder up.
//
// cgo is used instead of SWIG-Go: SWIG's Go output needs its own C++/C wrapper library and
// exposes SWIG-style pointer types, while cgo reads tigris.h directly, so this layer is a
// thin, auditable transcription and the public API stays plain Go.
//
// The library is found through CGO_LDFLAGS (bindings/go/CMakeLists.txt sets
// "-L<build>/libtigris -Wl,-rpath,<build>/libtigris").
package capi

/*
#cgo CFLAGS: -I${SRCDIR}/../../../../include
#cgo LDFLAGS: -ltigris
#include <stdlib.h>
#include "tigris.h"
*/
import "C"

import (
	"runtime"
	"unsafe"
)

type (
	Model    = *C.tigris_model
	Analysis = *C.tigris_analysis
	Plan     = *C.tigris_execution_plan
)

// Failure is a non-zero status with the message read on the same OS thread (libtigris
// keeps the last message per thread; goroutines move between threads, hence LockOSThread).
type Failure struct {
	Status  int
	Message string
}

func lastError(status C.tigris_status) *Failure {
	if status == C.TIGRIS_OK {
		return nil
	}
	return &Failure{Status: int(status), Message: C.GoString(C.tigris_last_error())}
}

func StatusName(status int) string { return C.GoString(C.tigris_status_name(C.tigris_status(status))) }
func Version() string              { return C.GoString(C.tigris_version()) }

func ParseSize(text string) (uint64, *Failure) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cs := C.CString(text)
	defer C.free(unsafe.Pointer(cs))
	var out C.uint64_t
	if f := lastError(C.tigris_parse_size(&out, cs)); f != nil {
		return 0, f
	}
	return uint64(out), nil
}

func Load(path string) (Model, *Failure) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cs := C.CString(path)
	defer C.free(unsafe.Pointer(cs))
	var m *C.tigris_model
	if f := lastError(C.tigris_load(&m, cs, nil)); f != nil {
		return nil, f
	}
	return m, nil
}

func LoadFromMemory(data []byte) (Model, *Failure) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var p unsafe.Pointer
	if len(data) > 0 {
		p = C.CBytes(data) // the library copies too, but cgo may not keep Go pointers
		defer C.free(p)
	}
	var m *C.tigris_model
	if f := lastError(C.tigris_load_from_memory(&m, p, C.size_t(len(data)), nil)); f != nil {
		return nil, f
	}
	return m, nil
}

func ModelFree(m Model)            { C.tigris_model_free(m) }
func ModelName(m Model) string     { return C.GoString(C.tigris_model_name(m)) }
func ModelOpCount(m Model) int     { return int(C.tigris_model_op_count(m)) }
func ModelTensorCount(m Model) int { return int(C.tigris_model_tensor_count(m)) }
func ModelJSON(m Model) string     { return C.GoString(C.tigris_model_json(m)) }

func Analyze(m Model, fast, slow, flash uint64) (Analysis, *Failure) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var o C.tigris_analyze_options
	if f := lastError(C.tigris_analyze_options_init(&o, C.TIGRIS_ANALYZE_OPTIONS_VERSION)); f != nil {
		return nil, f
	}
	o.fast_bytes, o.slow_bytes, o.flash_bytes = C.uint64_t(fast), C.uint64_t(slow), C.uint64_t(flash)
	var a *C.tigris_analysis
	if f := lastError(C.tigris_analyze(&a, m, &o)); f != nil {
		return nil, f
	}
	return a, nil
}

func AnalysisFree(a Analysis)        { C.tigris_analysis_free(a) }
func AnalysisVerdict(a Analysis) int { return int(C.tigris_analysis_verdict(a)) }
func AnalysisScheduledPeak(a Analysis) uint64 {
	return uint64(C.tigris_analysis_scheduled_peak_bytes(a))
}
func AnalysisNaivePeak(a Analysis) uint64    { return uint64(C.tigris_analysis_naive_peak_bytes(a)) }
func AnalysisSlowPeak(a Analysis) uint64     { return uint64(C.tigris_analysis_slow_peak_bytes(a)) }
func AnalysisStageCount(a Analysis) int      { return int(C.tigris_analysis_stage_count(a)) }
func AnalysisTiledStageCount(a Analysis) int { return int(C.tigris_analysis_tiled_stage_count(a)) }
func AnalysisChainCount(a Analysis) int      { return int(C.tigris_analysis_chain_count(a)) }
func AnalysisMACs(a Analysis) uint64         { return uint64(C.tigris_analysis_macs(a)) }
func AnalysisJSON(a Analysis) string         { return C.GoString(C.tigris_analysis_json(a)) }
func AnalysisTimelineSVG(a Analysis) string  { return C.GoString(C.tigris_analysis_timeline_svg(a)) }

func MakePlan(m Model, fast, slow, flash uint64, xip bool, lz4 bool) (Plan, *Failure) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var o C.tigris_plan_options
	if f := lastError(C.tigris_plan_options_init(&o, C.TIGRIS_PLAN_OPTIONS_VERSION)); f != nil {
		return nil, f
	}
	o.fast_bytes, o.slow_bytes, o.flash_bytes = C.uint64_t(fast), C.uint64_t(slow), C.uint64_t(flash)
	o.xip = 0
	if xip {
		o.xip = 1
	}
	o.compression = C.TIGRIS_COMPRESSION_NONE
	if lz4 {
		o.compression = C.TIGRIS_COMPRESSION_LZ4
	}
	var p *C.tigris_execution_plan
	if f := lastError(C.tigris_plan(&p, m, &o)); f != nil {
		return nil, f
	}
	return p, nil
}

func PlanFree(p Plan)                  { C.tigris_plan_free(p) }
func PlanFileBytes(p Plan) uint64      { return uint64(C.tigris_plan_file_bytes(p)) }
func PlanFastArenaBytes(p Plan) uint64 { return uint64(C.tigris_plan_fast_arena_bytes(p)) }
func PlanSlowArenaBytes(p Plan) uint64 { return uint64(C.tigris_plan_slow_arena_bytes(p)) }

func Emit(p Plan) ([]byte, *Failure) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var data unsafe.Pointer
	var size C.size_t
	if f := lastError(C.tigris_emit(&data, &size, p)); f != nil {
		return nil, f
	}
	defer C.tigris_free(data)
	return C.GoBytes(data, C.int(size)), nil
}
