package tigris_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"tigris.local/tigris"
)

// Plan.Run against `tigris run` on the same plan and input, the graph I/O against what the
// ONNX file declares, and the errors of bad input.

func mnist8(t *testing.T) string {
	return filepath.Join(env(t, "TIGRIS_MODELS_DIR"), "onnx", "mnist8.onnx")
}

// writeNpy writes a float32 .npy (format 1.0) with the given shape.
func writeNpy(t *testing.T, path string, shape []int64, values []float32) {
	dims := make([]string, len(shape))
	for i, d := range shape {
		dims[i] = fmt.Sprint(d)
	}
	header := fmt.Sprintf("{'descr': '<f4', 'fortran_order': False, 'shape': (%s,), }", strings.Join(dims, ", "))
	for (10+len(header)+1)%64 != 0 {
		header += " "
	}
	header += "\n"
	var b bytes.Buffer
	b.WriteString("\x93NUMPY\x01\x00")
	binary.Write(&b, binary.LittleEndian, uint16(len(header)))
	b.WriteString(header)
	for _, v := range values {
		binary.Write(&b, binary.LittleEndian, math.Float32bits(v))
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// npyData returns the data section of a .npy file (format 1.0 or 2.0).
func npyData(t *testing.T, path string) []byte {
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if raw[6] == 1 {
		return raw[10+int(binary.LittleEndian.Uint16(raw[8:])):]
	}
	return raw[12+int(binary.LittleEndian.Uint32(raw[8:])):]
}

func compileMnist(t *testing.T, fast uint64) *tigris.Plan {
	m, err := tigris.Load(mnist8(t))
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	p, err := m.Plan(tigris.Budgets{Fast: fast}, tigris.PlanOptions{XIP: true})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestInputsAndOutputsAreTheOnnxDeclarations(t *testing.T) {
	// mnist8.onnx declares input Input3 [1,1,28,28] and output Plus214_Output_0 [1,10], float.
	m, err := tigris.Load(mnist8(t))
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	p := compileMnist(t, 64<<10)
	defer p.Close()
	for _, f := range []func() ([]tigris.TensorInfo, error){m.Inputs, p.Inputs} {
		in, err := f()
		if err != nil || len(in) != 1 || in[0].Name != "Input3" || in[0].DType != tigris.DTypeFloat32 ||
			!reflect.DeepEqual(in[0].Shape, []int64{1, 1, 28, 28}) {
			t.Errorf("inputs %+v, %v", in, err)
		}
	}
	for _, f := range []func() ([]tigris.TensorInfo, error){m.Outputs, p.Outputs} {
		out, err := f()
		if err != nil || len(out) != 1 || out[0].Name != "Plus214_Output_0" ||
			!reflect.DeepEqual(out[0].Shape, []int64{1, 10}) {
			t.Errorf("outputs %+v, %v", out, err)
		}
	}
}

// cliRun runs `tigris run plan --input x.npy --output y.npy [extra...]` and returns the
// output's .npy header and data.
func cliRun(t *testing.T, planPath string, shape []int64, x []float32, extra ...string) (string, []byte) {
	dir := t.TempDir()
	xPath, yPath := filepath.Join(dir, "x.npy"), filepath.Join(dir, "y.npy")
	writeNpy(t, xPath, shape, x)
	args := append([]string{"run", planPath, "--input", xPath, "--output", yPath}, extra...)
	if msg, err := exec.Command(cli(t), args...).CombinedOutput(); err != nil {
		t.Fatalf("tigris %v: %v: %s", args, err, msg)
	}
	return npyHeader(t, yPath), npyData(t, yPath)
}

func npyHeader(t *testing.T, path string) string {
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(raw[:len(raw)-len(npyData(t, path))])
}

func TestRunEqualsCLIRun(t *testing.T) {
	shape := []int64{1, 1, 28, 28}
	x := make([]float32, 28*28)
	for i := range x {
		x[i] = float32(math.Sin(0.37 * float64(i)))
	}
	for _, fast := range []uint64{64 << 10, 16 << 10} { // 16K: tiled
		p := compileMnist(t, fast)
		defer p.Close()
		planPath := filepath.Join(t.TempDir(), "p.tgrs")
		if err := p.Save(planPath); err != nil {
			t.Fatal(err)
		}
		plan, err := p.Bytes()
		if err != nil {
			t.Fatal(err)
		}
		if saved, err := os.ReadFile(planPath); err != nil || !bytes.Equal(saved, plan) {
			t.Fatalf("%dK: Save and Bytes differ (%v)", fast>>10, err)
		}
		header, want := cliRun(t, planPath, shape, x)
		if !strings.Contains(header, "'<f4'") || !strings.Contains(header, "(1, 10)") || len(want) != 40 {
			t.Fatalf("%dK: `tigris run` wrote %q and %d bytes", fast>>10, header, len(want))
		}

		fromFile, err := tigris.LoadPlan(planPath)
		if err != nil {
			t.Fatal(err)
		}
		defer fromFile.Close()
		fromBytes, err := tigris.LoadPlanBytes(plan)
		if err != nil {
			t.Fatal(err)
		}
		defer fromBytes.Close()
		for source, plan := range map[string]*tigris.Plan{"compiled": p, "file": fromFile, "bytes": fromBytes} {
			what := fmt.Sprintf("%dK %s plan", fast>>10, source)
			got, stats, err := plan.Run(map[string]tigris.Tensor{"Input3": tigris.Float32Tensor(shape, x)}, tigris.RunOptions{})
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			y, ok := got["Plus214_Output_0"]
			if len(got) != 1 || !ok || y.DType != tigris.DTypeFloat32 || !reflect.DeepEqual(y.Shape, []int64{1, 10}) {
				t.Fatalf("%s: outputs %+v", what, got)
			}
			if !bytes.Equal(y.Data, want) {
				t.Errorf("%s: Run bytes differ from `tigris run`", what)
			}
			if values, err := y.Float32s(); err != nil || len(values) != 10 {
				t.Errorf("%s: Float32s %v, %v", what, values, err)
			}
			if plan.FastArenaBytes() != p.FastArenaBytes() || stats.FastArenaBytes != p.FastArenaBytes() ||
				stats.FastHighWaterBytes == 0 || stats.FastHighWaterBytes > stats.FastArenaBytes ||
				(stats.FastHighWaterBytes+15)/16*16 != stats.FastArenaBytes {
				t.Errorf("%s: stats %+v, plan's fast arena %d", what, stats, p.FastArenaBytes())
			}
			if fast == 64<<10 && plan.FastArenaBytes() > fast {
				t.Errorf("%s: fast arena %d over the budget", what, plan.FastArenaBytes())
			}
		}
		// A larger arena than the plan's: the run uses it, the high-water mark stays.
		_, stats, err := p.Run(map[string]tigris.Tensor{"Input3": tigris.Float32Tensor(shape, x)},
			tigris.RunOptions{FastBytes: p.FastArenaBytes() + 4096})
		if err != nil || stats.FastArenaBytes != p.FastArenaBytes()+4096 || stats.FastHighWaterBytes > p.FastArenaBytes() {
			t.Errorf("%dK, larger arena: %+v, %v", fast>>10, stats, err)
		}
	}
}

func TestInt8PlanQuantizesFloat32InputsAndDequantizesOnRequest(t *testing.T) {
	// mnist8 quantized to int8 QDQ by tests/models/make_qdq_models.py, in the build tree.
	build := os.Getenv("TIGRIS_BUILD_DIR")
	if build == "" {
		t.Skip("TIGRIS_BUILD_DIR is not set (ctest sets it): the int8 test models are in the build tree")
	}
	m, err := tigris.Load(filepath.Join(build, "test-models", "mnist8.int8.onnx"))
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	p, err := m.Plan(tigris.Budgets{Fast: 64 << 10}, tigris.PlanOptions{XIP: true})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	ins, err := p.Inputs()
	if err != nil {
		t.Fatal(err)
	}
	outs, err := p.Outputs()
	if err != nil {
		t.Fatal(err)
	}
	in, out := ins[0], outs[0]
	if len(ins) != 1 || in.DType != tigris.DTypeInt8 || !reflect.DeepEqual(in.Shape, []int64{1, 1, 28, 28}) ||
		len(in.Scales) != 1 || len(in.ZeroPoints) != 1 {
		t.Fatalf("inputs %+v", ins)
	}
	if len(outs) != 1 || out.DType != tigris.DTypeInt8 || len(out.Scales) != 1 || len(out.ZeroPoints) != 1 {
		t.Fatalf("outputs %+v", outs)
	}

	// Values on the input's quantization grid: quantizing them gives back q exactly.
	q := make([]byte, 784)
	x := make([]float32, 784)
	for i := range q {
		q[i] = byte(i * 37 % 256)
		x[i] = float32(int32(int8(q[i]))-in.ZeroPoints[0]) * in.Scales[0]
	}
	yq, stats, err := p.Run(map[string]tigris.Tensor{in.Name: tigris.Float32Tensor(in.Shape, x)}, tigris.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	fromQ, _, err := p.Run(map[string]tigris.Tensor{in.Name: {DType: tigris.DTypeInt8, Shape: in.Shape, Data: q}}, tigris.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(yq, fromQ) || yq[out.Name].DType != tigris.DTypeInt8 || len(yq[out.Name].Data) != 10 {
		t.Fatalf("float32 input quantized by the library %+v != the same int8 input %+v", yq, fromQ)
	}
	if stats.FastHighWaterBytes == 0 {
		t.Errorf("stats %+v", stats)
	}
	yf, _, err := p.Run(map[string]tigris.Tensor{in.Name: tigris.Float32Tensor(in.Shape, x)}, tigris.RunOptions{Dequantize: true})
	if err != nil {
		t.Fatal(err)
	}
	deq, err := yf[out.Name].Float32s()
	if err != nil {
		t.Fatal(err)
	}
	ints, _ := yq[out.Name].Int8s()
	for i, v := range ints { // ONNX DequantizeLinear
		if want := float32(int32(v)-out.ZeroPoints[0]) * out.Scales[0]; math.Abs(float64(deq[i]-want)) > 1e-6*math.Max(1, math.Abs(float64(want))) {
			t.Errorf("dequantized[%d] = %v, want %v", i, deq[i], want)
		}
	}

	planPath := filepath.Join(t.TempDir(), "q.tgrs")
	if err := p.Save(planPath); err != nil {
		t.Fatal(err)
	}
	header, want := cliRun(t, planPath, in.Shape, x)
	if !strings.Contains(header, "'|i1'") || !bytes.Equal(yq[out.Name].Data, want) {
		t.Errorf("int8 output differs from `tigris run` (%q)", header)
	}
	header, want = cliRun(t, planPath, in.Shape, x, "--dequantize")
	if !strings.Contains(header, "'<f4'") || !bytes.Equal(yf[out.Name].Data, want) {
		t.Errorf("dequantized output differs from `tigris run --dequantize` (%q)", header)
	}
}

func TestBadRunsAndPlansAreNamedErrors(t *testing.T) {
	p := compileMnist(t, 64<<10)
	defer p.Close()
	x := tigris.Float32Tensor([]int64{1, 1, 28, 28}, make([]float32, 28*28))
	cases := map[string]map[string]tigris.Tensor{
		"is missing":           {},
		"no graph input named": {"Input3": x, "nope": x},
		"needs 3136 bytes":     {"Input3": tigris.Float32Tensor([]int64{1, 1, 28, 27}, make([]float32, 28*27))},
		"is float32; got int8": {"Input3": {DType: tigris.DTypeInt8, Shape: x.Shape, Data: make([]byte, 784)}},
	}
	for want, inputs := range cases {
		_, _, err := p.Run(inputs, tigris.RunOptions{})
		var e *tigris.Error
		if !errors.As(err, &e) || e.Status != tigris.StatusInvalidArgument || !strings.Contains(e.Message, want) {
			t.Errorf("%q: got %v", want, err)
		}
	}
	_, _, err := p.Run(map[string]tigris.Tensor{"Input3": x}, tigris.RunOptions{FastBytes: 16})
	if err == nil || !strings.Contains(err.Error(), "TGRS_ERR_ARENA_TOO_SMALL") {
		t.Errorf("tiny arena: %v", err)
	}
	data, err := p.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	data[5] ^= 0x20 // the file identifier "TGRS"
	if _, err := tigris.LoadPlanBytes(data); !errors.Is(err, &tigris.Error{Status: tigris.StatusInvalidPlan}) {
		t.Errorf("corrupt plan: %v", err)
	}
	if _, err := tigris.LoadPlan(filepath.Join(t.TempDir(), "none.tgrs")); !errors.Is(err, &tigris.Error{Status: tigris.StatusIO}) {
		t.Errorf("missing plan: %v", err)
	}
	if _, err := tigris.LoadPlanBytes(nil); !errors.Is(err, &tigris.Error{Status: tigris.StatusInvalidArgument}) {
		t.Errorf("empty plan: %v", err)
	}
	p.Close()
	if _, _, err := p.Run(map[string]tigris.Tensor{"Input3": x}, tigris.RunOptions{}); !errors.Is(err, &tigris.Error{Status: tigris.StatusInvalidArgument}) {
		t.Errorf("closed plan ran: %v", err)
	}
	if _, err := p.Bytes(); err == nil {
		t.Error("closed plan emitted")
	}
}
