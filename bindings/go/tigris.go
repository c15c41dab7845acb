// Package tigris compiles ONNX models under an SRAM budget into tiled execution plans for
// microcontrollers, over the stable C ABI of libtigris (include/tigris.h).
//
//	m, err := tigris.Load("model.onnx")
//	if err != nil { ... }
//	defer m.Close()
//	a, err := m.Analyze(tigris.Budgets{Fast: 64 << 10})
//	defer a.Close()
//	fmt.Println(a.ScheduledPeakBytes(), a.Verdict())
package tigris

import (
	"runtime"

	"tigris.local/tigris/internal/capi"
)

// Version of the libtigris actually loaded, e.g. "0.1.0".
func Version() string { return capi.Version() }

// ParseSize reads a human size ("256K", "1.5MiB"; K = 1024) with the library's parser.
func ParseSize(text string) (uint64, error) {
	v, f := capi.ParseSize(text)
	return v, wrap(f)
}

// Budgets in bytes. Fast (SRAM) is required; Slow and Flash are 0 for "not given".
type Budgets struct {
	Fast, Slow, Flash uint64
}

// Model is a loaded, normalized ONNX model. Close it when done (a finalizer is only a
// safety net).
type Model struct{ h capi.Model }

// Load reads an ONNX file.
func Load(path string) (*Model, error) {
	h, f := capi.Load(path)
	if f != nil {
		return nil, wrap(f)
	}
	return newModel(h), nil
}

// LoadBytes reads an ONNX model from memory.
func LoadBytes(data []byte) (*Model, error) {
	h, f := capi.LoadFromMemory(data)
	if f != nil {
		return nil, wrap(f)
	}
	return newModel(h), nil
}

func newModel(h capi.Model) *Model {
	m := &Model{h: h}
	runtime.SetFinalizer(m, (*Model).Close)
	return m
}

// Close frees the model; a second Close is a no-op.
func (m *Model) Close() error {
	if m.h != nil {
		capi.ModelFree(m.h)
		m.h = nil
	}
	return nil
}

func (m *Model) Name() string     { return capi.ModelName(m.h) }
func (m *Model) OpCount() int     { return capi.ModelOpCount(m.h) }
func (m *Model) TensorCount() int { return capi.ModelTensorCount(m.h) }
func (m *Model) JSON() string     { return capi.ModelJSON(m.h) }
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
	h, f := capi.Analyze(m.h, b.Fast, b.Slow, b.Flash)
	if f != nil {
		return nil, wrap(f)
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
	h, f := capi.MakePlan(m.h, b.Fast, b.Slow, b.Flash, o.XIP, o.LZ4)
	if f != nil {
		return nil, wrap(f)
	}
	p := &Plan{h: h}
	runtime.SetFinalizer(p, (*Plan).Close)
	return p, nil
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
type Analysis struct{ h capi.Analysis }

func (a *Analysis) Close() error {
	if a.h != nil {
		capi.AnalysisFree(a.h)
		a.h = nil
	}
	return nil
}

func (a *Analysis) Verdict() Verdict           { return Verdict(capi.AnalysisVerdict(a.h)) }
func (a *Analysis) ScheduledPeakBytes() uint64 { return capi.AnalysisScheduledPeak(a.h) }
func (a *Analysis) NaivePeakBytes() uint64     { return capi.AnalysisNaivePeak(a.h) }
func (a *Analysis) SlowPeakBytes() uint64      { return capi.AnalysisSlowPeak(a.h) }
func (a *Analysis) StageCount() int            { return capi.AnalysisStageCount(a.h) }
func (a *Analysis) TiledStageCount() int       { return capi.AnalysisTiledStageCount(a.h) }
func (a *Analysis) ChainCount() int            { return capi.AnalysisChainCount(a.h) }
func (a *Analysis) MACs() uint64               { return capi.AnalysisMACs(a.h) }

// JSON is the report `tigris analyze --json` prints.
func (a *Analysis) JSON() string        { return capi.AnalysisJSON(a.h) }
func (a *Analysis) TimelineSVG() string { return capi.AnalysisTimelineSVG(a.h) }

// Plan is a compiled execution plan.
type Plan struct{ h capi.Plan }

func (p *Plan) Close() error {
	if p.h != nil {
		capi.PlanFree(p.h)
		p.h = nil
	}
	return nil
}

// Bytes is the .tgrs file (deterministic).
func (p *Plan) Bytes() ([]byte, error) {
	b, f := capi.Emit(p.h)
	return b, wrap(f)
}

func (p *Plan) FileBytes() uint64      { return capi.PlanFileBytes(p.h) }
func (p *Plan) FastArenaBytes() uint64 { return capi.PlanFastArenaBytes(p.h) }
func (p *Plan) SlowArenaBytes() uint64 { return capi.PlanSlowArenaBytes(p.h) }
