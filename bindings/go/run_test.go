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

func TestRunEqualsCLIRun(t *testing.T) {
	p := compileMnist(t, 16<<10) // tiled
	defer p.Close()
	dir := t.TempDir()
	plan, err := p.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	planPath := filepath.Join(dir, "p.tgrs")
	if err := os.WriteFile(planPath, plan, 0o644); err != nil {
		t.Fatal(err)
	}
	shape := []int64{1, 1, 28, 28}
	x := make([]float32, 28*28)
	for i := range x {
		x[i] = float32(math.Sin(0.37 * float64(i)))
	}
	writeNpy(t, filepath.Join(dir, "x.npy"), shape, x)
	if msg, err := exec.Command(cli(t), "run", planPath, "--input", filepath.Join(dir, "x.npy"),
		"--output", filepath.Join(dir, "y.npy")).CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, msg)
	}
	want := npyData(t, filepath.Join(dir, "y.npy"))

	for _, source := range []string{"compiled", "loaded"} {
		plan := p
		if source == "loaded" {
			if plan, err = tigris.LoadPlan(planPath); err != nil {
				t.Fatal(err)
			}
			defer plan.Close()
		}
		got, stats, err := plan.Run(map[string]tigris.Tensor{"Input3": tigris.Float32Tensor(shape, x)}, tigris.RunOptions{})
		if err != nil {
			t.Fatal(err)
		}
		y := got["Plus214_Output_0"]
		if !bytes.Equal(y.Data, want) {
			t.Errorf("%s plan: Run bytes differ from `tigris run`", source)
		}
		if (stats.FastHighWaterBytes+15)/16*16 != plan.FastArenaBytes() {
			t.Errorf("%s plan: fast high-water mark %d, plan %d", source, stats.FastHighWaterBytes, plan.FastArenaBytes())
		}
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
}
