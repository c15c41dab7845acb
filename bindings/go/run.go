package tigris

import (
	"encoding/binary"
	"fmt"
	"math"
	"runtime"
)

// DType is a tigris_dtype of include/tigris.h; the values are pinned forever.
type DType int

const (
	DTypeUnknown DType = 0
	DTypeFloat32 DType = 1
	DTypeInt8    DType = 2
	DTypeUint8   DType = 3
	DTypeInt16   DType = 4
	DTypeInt32   DType = 5
	DTypeInt64   DType = 6
	DTypeFloat16 DType = 7
	DTypeFloat64 DType = 8
	DTypeBool    DType = 9
	DTypeUint16  DType = 10
)

var dtypeNames = map[DType]string{
	DTypeFloat32: "float32", DTypeInt8: "int8", DTypeUint8: "uint8", DTypeInt16: "int16",
	DTypeInt32: "int32", DTypeInt64: "int64", DTypeFloat16: "float16", DTypeFloat64: "float64",
	DTypeBool: "bool", DTypeUint16: "uint16",
}

var dtypeSizes = map[DType]int{
	DTypeFloat32: 4, DTypeInt8: 1, DTypeUint8: 1, DTypeInt16: 2, DTypeInt32: 4, DTypeInt64: 8,
	DTypeFloat16: 2, DTypeFloat64: 8, DTypeBool: 1, DTypeUint16: 2,
}

// String is the NumPy-style name ("float32", "int8", ...).
func (d DType) String() string {
	if name, ok := dtypeNames[d]; ok {
		return name
	}
	return "unknown"
}

// Size is the bytes of one element (0 for DTypeUnknown).
func (d DType) Size() int { return dtypeSizes[d] }

// TensorInfo describes a graph input or output: its name, dtype, ONNX shape (NCHW) and,
// for a quantized tensor, its scales and zero points (one, or one per channel).
type TensorInfo struct {
	Name       string
	DType      DType
	Shape      []int64
	Scales     []float32
	ZeroPoints []int32
}

// Elements is the product of the shape (1 for a scalar).
func (t TensorInfo) Elements() int {
	n := 1
	for _, d := range t.Shape {
		n *= int(d)
	}
	return n
}

// Tensor is an array in the ONNX layout: raw little-endian bytes of DType.
type Tensor struct {
	DType DType
	Shape []int64
	Data  []byte
}

// Float32Tensor makes a float32 tensor of the given shape from values.
func Float32Tensor(shape []int64, values []float32) Tensor {
	data := make([]byte, 4*len(values))
	for i, v := range values {
		binary.LittleEndian.PutUint32(data[4*i:], math.Float32bits(v))
	}
	return Tensor{DType: DTypeFloat32, Shape: append([]int64(nil), shape...), Data: data}
}

// Float32s reads a float32 tensor's values (an error for any other dtype).
func (t Tensor) Float32s() ([]float32, error) {
	if t.DType != DTypeFloat32 {
		return nil, fmt.Errorf("tigris: tensor is %v, not float32", t.DType)
	}
	out := make([]float32, len(t.Data)/4)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(t.Data[4*i:]))
	}
	return out, nil
}

// Int8s reads an int8 tensor's values (an error for any other dtype).
func (t Tensor) Int8s() ([]int8, error) {
	if t.DType != DTypeInt8 {
		return nil, fmt.Errorf("tigris: tensor is %v, not int8", t.DType)
	}
	out := make([]int8, len(t.Data))
	for i, b := range t.Data {
		out[i] = int8(b)
	}
	return out, nil
}

// RunOptions: Dequantize returns int8 outputs as float32 (the plan's output scale and zero
// point, as ONNX DequantizeLinear); FastBytes / SlowBytes run with arenas of those sizes
// instead of the plan's (0: the plan's).
type RunOptions struct {
	Dequantize           bool
	FastBytes, SlowBytes uint64
}

// RunStats is what one Run measured: the arenas it ran with, the highest byte the runtime
// touched in each (+1), and the runtime's wall time.
type RunStats struct {
	FastArenaBytes, SlowArenaBytes         uint64
	FastHighWaterBytes, SlowHighWaterBytes uint64
	RunSeconds                             float64
}

// LoadPlan reads a .tgrs file; the runtime's verifier checks it first (StatusInvalidPlan
// names the field and the rule a bad file breaks).
func LoadPlan(path string) (*Plan, error) {
	h, err := planFromFile(path)
	if err != nil {
		return nil, err
	}
	return newPlan(h), nil
}

// LoadPlanBytes is LoadPlan for the bytes of a .tgrs file.
func LoadPlanBytes(data []byte) (*Plan, error) {
	h, err := planFromMemory(data)
	if err != nil {
		return nil, err
	}
	return newPlan(h), nil
}

func newPlan(h planHandle) *Plan {
	p := &Plan{h: h}
	runtime.SetFinalizer(p, (*Plan).Close)
	return p
}

func (p *Plan) closed() error {
	if p.h == nil {
		return &Error{Status: StatusInvalidArgument, Message: "plan is closed"}
	}
	return nil
}

// Inputs are the plan's graph inputs as it states them (an int8 plan's quantized input is
// DTypeInt8 with its scale).
func (p *Plan) Inputs() ([]TensorInfo, error) {
	if err := p.closed(); err != nil {
		return nil, err
	}
	return planTensors(p.h, false)
}

// Outputs are the plan's graph outputs.
func (p *Plan) Outputs() ([]TensorInfo, error) {
	if err := p.closed(); err != nil {
		return nil, err
	}
	return planTensors(p.h, true)
}

// Inputs are the normalized model's graph inputs, shapes as in the ONNX file.
func (m *Model) Inputs() ([]TensorInfo, error) {
	if err := m.closed(); err != nil {
		return nil, err
	}
	return modelTensors(m.h, false)
}

// Outputs are the normalized model's graph outputs.
func (m *Model) Outputs() ([]TensorInfo, error) {
	if err := m.closed(); err != nil {
		return nil, err
	}
	return modelTensors(m.h, true)
}

// Run executes the plan once on this machine with the C99 runtime (the code a
// microcontroller runs), in arenas of the plan's sizes, and returns the outputs by name.
// Give every graph input by name in the plan's dtype and shape, or as float32 for an int8
// input (quantized with the plan's scale and zero point). The output bytes equal those of
// `tigris run` on the same plan and input.
func (p *Plan) Run(inputs map[string]Tensor, o RunOptions) (map[string]Tensor, RunStats, error) {
	specs, err := p.Inputs()
	if err != nil {
		return nil, RunStats{}, err
	}
	bad := func(format string, args ...any) error {
		return &Error{Status: StatusInvalidArgument, Message: "Plan.Run: " + fmt.Sprintf(format, args...)}
	}
	known := map[string]bool{}
	for _, s := range specs {
		known[s.Name] = true
	}
	for name := range inputs {
		if !known[name] {
			return nil, RunStats{}, bad("no graph input named %q", name)
		}
	}
	in := make([]Tensor, len(specs))
	for i, s := range specs {
		t, ok := inputs[s.Name]
		if !ok {
			return nil, RunStats{}, bad("graph input %q is missing", s.Name)
		}
		if t.DType != s.DType && !(s.DType == DTypeInt8 && t.DType == DTypeFloat32) {
			return nil, RunStats{}, bad("input %q is %v; got %v", s.Name, s.DType, t.DType)
		}
		if len(t.Data) != s.Elements()*t.DType.Size() {
			return nil, RunStats{}, bad("input %q %v needs %d bytes of %v, got %d", s.Name, s.Shape,
				s.Elements()*t.DType.Size(), t.DType, len(t.Data))
		}
		in[i] = t
	}
	outSpecs, err := p.Outputs()
	if err != nil {
		return nil, RunStats{}, err
	}
	out := make([]Tensor, len(outSpecs))
	for i, s := range outSpecs {
		dtype := s.DType
		if o.Dequantize && dtype == DTypeInt8 {
			dtype = DTypeFloat32
		}
		out[i] = Tensor{DType: dtype, Shape: append([]int64(nil), s.Shape...),
			Data: make([]byte, s.Elements()*dtype.Size())}
	}
	stats, err := runPlan(p.h, in, out, o)
	if err != nil {
		return nil, RunStats{}, err
	}
	result := make(map[string]Tensor, len(out))
	for i, s := range outSpecs {
		result[s.Name] = out[i]
	}
	return result, stats, nil
}
