// Package tigris compiles ONNX models under an SRAM budget into tiled execution plans for
// microcontrollers, over the stable C ABI of libtigris (include/tigris.h).
//
//	m, err := tigris.Load("model.onnx")
//	if err != nil { ... }
//	defer m.Close()
//	a, err := m.Analyze(tigris.Budgets{Fast: 64 << 10})
//	defer a.Close()
//	fmt.Println(a.ScheduledPeakBytes(), a.Verdict())
//
//	p, err := m.Plan(tigris.Budgets{Fast: 64 << 10}, tigris.PlanOptions{XIP: true})
//	defer p.Close()
//	in, _ := p.Inputs()
//	out, stats, err := p.Run(map[string]tigris.Tensor{in[0].Name: tigris.Float32Tensor(in[0].Shape, x)}, tigris.RunOptions{})
//
// The package calls libtigris through cgo and finds it with pkg-config (tigris.pc of an
// installed TiGrIS: set PKG_CONFIG_PATH to its lib/pkgconfig).
package tigris

// #include <tigris.h>
import "C"

import (
	"runtime"
)

// Version of the libtigris actually loaded, e.g. "0.4.0".
func Version() string { return version() }

// ParseSize reads a human size ("256K", "1.5MiB"; K = 1024) with the library's parser.
func ParseSize(text string) (uint64, error) {
	return parseSize(text)
}

// Budgets in bytes. Fast (SRAM) is required; Slow and Flash are 0 for "not given".
// Layout says how hard to work at packing each arena: LayoutGreedy (the zero value) or
// LayoutExact, a MILP solve per arena within TimeLimit seconds for the whole plan (0: the
// library's default, 10 s). The CLI's --layout and --time-limit. Objective searches
// (ObjectiveMemory, ObjectiveLatency; the zero value plans once) among plans recomputing at
// most *MaxRecompute percent of the MACs (nil: no limit): the CLI's --objective and
// --max-recompute (docs/planning.md, "Search").
type Budgets struct {
	Fast, Slow, Flash uint64
	Layout            Layout
	TimeLimit         float64
	Objective         Objective
	MaxRecompute      *float64
}

// Objective is what the planner optimizes (tigris_objective).
type Objective int

const (
	ObjectiveNone    Objective = 0 // one planning pass
	ObjectiveMemory  Objective = 1 // search; the least fast memory
	ObjectiveLatency Objective = 2 // search; the least recompute, slow traffic, tile steps
)

// Layout is how the planner places buffers in an arena (docs/memory-model.md).
type Layout int

const (
	LayoutGreedy Layout = 0 // the lower of first fit and greedy by size
	LayoutExact  Layout = 1 // then an exact (MILP) layout for arenas above their live bound
)

// Model is a loaded, normalized ONNX model. Close it when done (a finalizer is only a
// safety net).
type Model struct{ h modelHandle }

// Load reads an ONNX file.
func Load(path string) (*Model, error) {
	h, err := load(path)
	if err != nil {
		return nil, err
	}
	return newModel(h), nil
}

// LoadBytes reads an ONNX model from memory.
func LoadBytes(data []byte) (*Model, error) {
	h, err := loadFromMemory(data)
	if err != nil {
		return nil, err
	}
	return newModel(h), nil
}

func newModel(h modelHandle) *Model {
	m := &Model{h: h}
	runtime.SetFinalizer(m, (*Model).Close)
	return m
}

// Close frees the model; a second Close is a no-op.
func (m *Model) Close() error {
	if m.h != nil {
		C.tigris_model_free(m.h)
		m.h = nil
	}
	return nil
}

func (m *Model) Name() string     { return C.GoString(C.tigris_model_name(m.h)) }
func (m *Model) OpCount() int     { return int(C.tigris_model_op_count(m.h)) }
func (m *Model) TensorCount() int { return int(C.tigris_model_tensor_count(m.h)) }
func (m *Model) JSON() string     { return C.GoString(C.tigris_model_json(m.h)) }
func (m *Model) closed() error {
	if m.h == nil {
		return &Error{Status: StatusInvalidArgument, Message: "model is closed"}
	}
	return nil
}

// Analyze plans the model under the budgets.
func (m *Model) Analyze(b Budgets) (*Analysis, error) {
	if err := m.closed(); err != nil {
		return nil, err
	}
	h, err := analyze(m.h, b)
	if err != nil {
		return nil, err
	}
	a := &Analysis{h: h}
	runtime.SetFinalizer(a, (*Analysis).Close)
	return a, nil
}

// PlanOptions: XIP reads weights in place from flash; LZ4 compresses them per stage.
type PlanOptions struct {
	XIP, LZ4 bool
}

// Plan compiles an execution plan.
func (m *Model) Plan(b Budgets, o PlanOptions) (*Plan, error) {
	if err := m.closed(); err != nil {
		return nil, err
	}
	h, err := makePlan(m.h, b, o)
	if err != nil {
		return nil, err
	}
	return newPlan(h), nil
}

// Verdict says how the model runs under the budget (tigris_verdict).
type Verdict int

const (
	VerdictOK Verdict = iota
	VerdictPartitioned
	VerdictTiled
	VerdictNeedsWork
)

// String is the spelling of the JSON report ("ok", "partitioned", "tiled", "needs_work").
func (v Verdict) String() string {
	return [...]string{"ok", "partitioned", "tiled", "needs_work"}[v]
}

// Analysis is a memory analysis of a model.
type Analysis struct{ h analysisHandle }

func (a *Analysis) Close() error {
	if a.h != nil {
		C.tigris_analysis_free(a.h)
		a.h = nil
	}
	return nil
}

func (a *Analysis) Verdict() Verdict { return Verdict(C.tigris_analysis_verdict(a.h)) }

// Refusal is what Compile would return for a plan whose stages all fit but that it
// refuses (weights over the flash budget, an op the runtime cannot run); the verdict is
// then VerdictNeedsWork. nil when nothing was refused.
func (a *Analysis) Refusal() error {
	status := Status(C.tigris_analysis_refusal_status(a.h))
	if status == StatusOK {
		return nil
	}
	return &Error{Status: status, Message: C.GoString(C.tigris_analysis_refusal(a.h))}
}
func (a *Analysis) ScheduledPeakBytes() uint64 {
	return uint64(C.tigris_analysis_scheduled_peak_bytes(a.h))
}
func (a *Analysis) NaivePeakBytes() uint64 { return uint64(C.tigris_analysis_naive_peak_bytes(a.h)) }
func (a *Analysis) SlowPeakBytes() uint64  { return uint64(C.tigris_analysis_slow_peak_bytes(a.h)) }
func (a *Analysis) StageCount() int        { return int(C.tigris_analysis_stage_count(a.h)) }
func (a *Analysis) TiledStageCount() int   { return int(C.tigris_analysis_tiled_stage_count(a.h)) }
func (a *Analysis) ChainCount() int        { return int(C.tigris_analysis_chain_count(a.h)) }
func (a *Analysis) MACs() uint64           { return uint64(C.tigris_analysis_macs(a.h)) }

// RecomputeMACs are the MACs tiling recomputes (halo rows); SlowTrafficBytes the bytes
// spilled to and read back from slow memory.
func (a *Analysis) RecomputeMACs() uint64 { return uint64(C.tigris_analysis_recompute_macs(a.h)) }
func (a *Analysis) SlowTrafficBytes() uint64 {
	return uint64(C.tigris_analysis_slow_traffic_bytes(a.h))
}

// JSON is the report `tigris analyze --json` prints.
func (a *Analysis) JSON() string        { return C.GoString(C.tigris_analysis_json(a.h)) }
func (a *Analysis) TimelineSVG() string { return C.GoString(C.tigris_analysis_timeline_svg(a.h)) }

// Plan is a compiled execution plan.
type Plan struct{ h planHandle }

func (p *Plan) Close() error {
	if p.h != nil {
		C.tigris_plan_free(p.h)
		p.h = nil
	}
	return nil
}

// Bytes is the .tgrs file (deterministic).
func (p *Plan) Bytes() ([]byte, error) {
	if err := p.closed(); err != nil {
		return nil, err
	}
	return emit(p.h)
}

// Save writes the .tgrs file to path.
func (p *Plan) Save(path string) error {
	if err := p.closed(); err != nil {
		return err
	}
	return emitToFile(p.h, path)
}

// ExplorationJSON is what the search found when the Budgets had an Objective
// (tigris_plan_exploration_json): the analysis JSON's "exploration" object, "null" for a
// plan made in one pass.
func (p *Plan) ExplorationJSON() string {
	if p.h == nil {
		return "null"
	}
	return planExplorationJSON(p.h)
}

// Summary of the plan: the .tgrs size, its weights raw and as stored (LZ4), and the
// arenas the runtime needs.
func (p *Plan) FileBytes() uint64         { return uint64(C.tigris_plan_file_bytes(p.h)) }
func (p *Plan) WeightBytes() uint64       { return uint64(C.tigris_plan_weight_bytes(p.h)) }
func (p *Plan) StoredWeightBytes() uint64 { return uint64(C.tigris_plan_stored_weight_bytes(p.h)) }
func (p *Plan) FastArenaBytes() uint64    { return uint64(C.tigris_plan_fast_arena_bytes(p.h)) }
func (p *Plan) SlowArenaBytes() uint64    { return uint64(C.tigris_plan_slow_arena_bytes(p.h)) }
