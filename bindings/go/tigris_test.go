package tigris_test

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"

	"tigris.local/tigris"
)

// The expected values come from the `tigris` CLI run on the same model and budgets: an
// independent client of the C ABI.

func env(t *testing.T, name string) string {
	v := os.Getenv(name)
	if v == "" {
		t.Fatalf("%s is not set (ctest sets it: bindings/go/CMakeLists.txt)", name)
	}
	return v
}

func modelPath(t *testing.T) string {
	return filepath.Join(env(t, "TIGRIS_MODELS_DIR"), "onnx", "vww_mobilenetv1_025_96.onnx")
}

// cli is the installed `tigris` when the test runs against an installed tree
// (TIGRIS_PREFIX, as ctest does), else the build's.
func cli(t *testing.T) string {
	if prefix := os.Getenv("TIGRIS_PREFIX"); prefix != "" {
		return filepath.Join(prefix, "bin", "tigris")
	}
	return filepath.Join(env(t, "TIGRIS_BUILD_DIR"), "bin", "tigris")
}

func TestAnalyzeMatchesCLI(t *testing.T) {
	out, err := exec.Command(cli(t), "analyze", modelPath(t), "-m", "64K", "--json").Output()
	if err != nil {
		t.Fatal(err)
	}
	var want map[string]any
	if err := json.Unmarshal(out, &want); err != nil {
		t.Fatal(err)
	}
	m, err := tigris.Load(modelPath(t))
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	fast, err := tigris.ParseSize("64K")
	if err != nil {
		t.Fatal(err)
	}
	a, err := m.Analyze(tigris.Budgets{Fast: fast})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if got := float64(a.ScheduledPeakBytes()); got != want["scheduled_peak_bytes"] {
		t.Errorf("scheduled_peak_bytes %v, CLI %v", got, want["scheduled_peak_bytes"])
	}
	if got := a.Verdict().String(); got != want["verdict"] {
		t.Errorf("verdict %v, CLI %v", got, want["verdict"])
	}
	if got := a.StageCount(); got != len(want["stages"].([]any)) {
		t.Errorf("stage count %d, CLI %d", got, len(want["stages"].([]any)))
	}
	naive := want["memory"].(map[string]any)["naive_peak_bytes"]
	if got := float64(a.NaivePeakBytes()); got != naive {
		t.Errorf("naive peak %v, CLI %v", got, naive)
	}
	totals := want["totals"].(map[string]any)
	for name, got := range map[string]uint64{"macs": a.MACs(), "recompute_macs": a.RecomputeMACs(),
		"slow_traffic_bytes": a.SlowTrafficBytes()} {
		if float64(got) != totals[name] {
			t.Errorf("totals.%s %d, CLI %v", name, got, totals[name])
		}
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(a.JSON()), &got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Error("analysis JSON differs from `tigris analyze --json`")
	}
}

func TestPlanBytesMatchCLICompile(t *testing.T) {
	out := filepath.Join(t.TempDir(), "cli.tgrs")
	if msg, err := exec.Command(cli(t), "compile", modelPath(t), "-m", "64K", "--xip", "-o", out).CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, msg)
	}
	want, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	m, err := tigris.Load(modelPath(t))
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	p, err := m.Plan(tigris.Budgets{Fast: 64 << 10}, tigris.PlanOptions{XIP: true})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	got, err := p.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	if uint64(len(got)) != p.FileBytes() {
		t.Errorf("FileBytes %d, emitted %d", p.FileBytes(), len(got))
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("plan bytes differ from `tigris compile` (%d vs %d bytes)", len(got), len(want))
	}
}

func TestBadPathIsIOError(t *testing.T) {
	_, err := tigris.Load(filepath.Join(t.TempDir(), "missing.onnx"))
	var e *tigris.Error
	if !errors.As(err, &e) {
		t.Fatalf("want *tigris.Error, got %v", err)
	}
	if e.Status != 2 { // TIGRIS_ERR_IO, pinned in tigris.h (StatusIO)
		t.Errorf("status %d, want 2", e.Status)
	}
	if e.Status.String() != "TIGRIS_ERR_IO" || e.Message == "" {
		t.Errorf("got %q / %q", e.Status, e.Message)
	}
	if !errors.Is(err, &tigris.Error{Status: tigris.StatusIO}) {
		t.Error("errors.Is by status failed")
	}
}

func TestEmptyBytesIsEmptyModel(t *testing.T) {
	_, err := tigris.LoadBytes(nil)
	if !errors.Is(err, &tigris.Error{Status: tigris.StatusEmptyModel}) {
		t.Fatalf("want TIGRIS_ERR_EMPTY_MODEL, got %v", err)
	}
}

func TestLoadBytesEqualsLoad(t *testing.T) {
	data, err := os.ReadFile(modelPath(t))
	if err != nil {
		t.Fatal(err)
	}
	m, err := tigris.LoadBytes(data)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	a, err := m.Analyze(tigris.Budgets{Fast: 64 << 10})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	m2, _ := tigris.Load(modelPath(t))
	defer m2.Close()
	a2, _ := m2.Analyze(tigris.Budgets{Fast: 64 << 10})
	defer a2.Close()
	if a.JSON() != a2.JSON() {
		t.Error("bytes and path loads analyze differently")
	}
}

func TestParseSize(t *testing.T) {
	// Binary units (tigris.h): K = 1024, MiB = 1024^2.
	for text, want := range map[string]uint64{"256K": 262144, "1.5MiB": 1572864} {
		if got, err := tigris.ParseSize(text); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v", text, got, err)
		}
	}
	if _, err := tigris.ParseSize("lots"); !errors.Is(err, &tigris.Error{Status: tigris.StatusInvalidArgument}) {
		t.Errorf("want invalid argument, got %v", err)
	}
}

// The verdict is a promise: weights over the flash budget make a plan whose stages fit
// one that Compile refuses, so the analysis says needs_work and carries Compile's error.
func TestRefusalIsCompilesError(t *testing.T) {
	m, err := tigris.Load(modelPath(t))
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	a, err := m.Analyze(tigris.Budgets{Fast: 64 << 10, Flash: 100 << 10})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if a.Verdict() != tigris.VerdictNeedsWork {
		t.Errorf("verdict %v, want needs_work", a.Verdict())
	}
	if err := a.Refusal(); !errors.Is(err, &tigris.Error{Status: tigris.StatusFlashBudgetTooSmall}) {
		t.Errorf("refusal %v, want TIGRIS_ERR_FLASH_BUDGET_TOO_SMALL", err)
	}
	fits, err := m.Analyze(tigris.Budgets{Fast: 64 << 10})
	if err != nil {
		t.Fatal(err)
	}
	defer fits.Close()
	if err := fits.Refusal(); err != nil {
		t.Errorf("refusal %v without a flash budget", err)
	}
}

func TestZeroBudgetIsInvalidBudget(t *testing.T) {
	m, err := tigris.Load(modelPath(t))
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	_, err = m.Analyze(tigris.Budgets{})
	if !errors.Is(err, &tigris.Error{Status: tigris.StatusInvalidBudget}) {
		t.Errorf("want TIGRIS_ERR_INVALID_BUDGET, got %v", err)
	}
	m.Close()
	if _, err := m.Analyze(tigris.Budgets{Fast: 1}); err == nil {
		t.Error("closed model analyzed")
	}
}

func TestStatusValuesAreTheLibrarysNames(t *testing.T) {
	// The constants are pinned in tigris.h; the library names each value.
	names := map[tigris.Status]string{
		tigris.StatusOK: "TIGRIS_OK", tigris.StatusInvalidArgument: "TIGRIS_ERR_INVALID_ARGUMENT",
		tigris.StatusIO: "TIGRIS_ERR_IO", tigris.StatusEmptyModel: "TIGRIS_ERR_EMPTY_MODEL",
		tigris.StatusNotONNX: "TIGRIS_ERR_NOT_ONNX", tigris.StatusTruncatedModel: "TIGRIS_ERR_TRUNCATED_MODEL",
		tigris.StatusInvalidModel: "TIGRIS_ERR_INVALID_MODEL", tigris.StatusGraphCycle: "TIGRIS_ERR_GRAPH_CYCLE",
		tigris.StatusDanglingInput: "TIGRIS_ERR_DANGLING_INPUT", tigris.StatusUnsupportedOp: "TIGRIS_ERR_UNSUPPORTED_OP",
		tigris.StatusDynamicShape: "TIGRIS_ERR_DYNAMIC_SHAPE", tigris.StatusShapeInference: "TIGRIS_ERR_SHAPE_INFERENCE",
		tigris.StatusExternalData: "TIGRIS_ERR_EXTERNAL_DATA", tigris.StatusUnsupportedDType: "TIGRIS_ERR_UNSUPPORTED_DTYPE",
		tigris.StatusUnsupportedQuantization: "TIGRIS_ERR_UNSUPPORTED_QUANTIZATION",
		tigris.StatusOutOfMemory:             "TIGRIS_ERR_OUT_OF_MEMORY", tigris.StatusInternal: "TIGRIS_ERR_INTERNAL",
		tigris.StatusInvalidBudget: "TIGRIS_ERR_INVALID_BUDGET", tigris.StatusSlowBudgetTooSmall: "TIGRIS_ERR_SLOW_BUDGET_TOO_SMALL",
		tigris.StatusFlashBudgetTooSmall: "TIGRIS_ERR_FLASH_BUDGET_TOO_SMALL",
		tigris.StatusVersionMismatch:     "TIGRIS_ERR_VERSION_MISMATCH", tigris.StatusDoesNotFit: "TIGRIS_ERR_DOES_NOT_FIT",
		tigris.StatusInvalidPlan: "TIGRIS_ERR_INVALID_PLAN",
	}
	if len(names) != 23 {
		t.Fatalf("%d statuses", len(names))
	}
	for s, want := range names {
		if s.String() != want {
			t.Errorf("Status(%d) is %s, want %s", int(s), s, want)
		}
	}
}

// The exact layout packs cifar_mobilenet_relu6's single stage tighter than greedy, as the
// CLI's --layout exact does; a negative time limit is the library's invalid argument.
func TestExactLayoutMatchesCLI(t *testing.T) {
	path := filepath.Join(env(t, "TIGRIS_MODELS_DIR"), "onnx", "cifar_mobilenet_relu6.onnx")
	peak := func(args ...string) float64 {
		out, err := exec.Command(cli(t), append([]string{"analyze", path, "-m", "64M", "--json"}, args...)...).Output()
		if err != nil {
			t.Fatal(err)
		}
		var report map[string]any
		if err := json.Unmarshal(out, &report); err != nil {
			t.Fatal(err)
		}
		return report["scheduled_peak_bytes"].(float64)
	}
	greedy, exact := peak(), peak("--layout", "exact", "--time-limit", "30")
	m, err := tigris.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	a, err := m.Analyze(tigris.Budgets{Fast: 64 << 20, Layout: tigris.LayoutExact, TimeLimit: 30})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if got := float64(a.ScheduledPeakBytes()); got != exact || got >= greedy {
		t.Errorf("exact layout peak %v, CLI exact %v, CLI greedy %v", got, exact, greedy)
	}
	_, err = m.Analyze(tigris.Budgets{Fast: 64 << 20, Layout: tigris.LayoutExact, TimeLimit: -1})
	if !errors.Is(err, &tigris.Error{Status: tigris.StatusInvalidArgument}) {
		t.Errorf("want TIGRIS_ERR_INVALID_ARGUMENT, got %v", err)
	}
}

func TestObjectiveMatchesCLI(t *testing.T) {
	path := filepath.Join(env(t, "TIGRIS_MODELS_DIR"), "onnx", "kws_small_cnn.onnx")
	out, err := exec.Command(cli(t), "analyze", path, "-m", "16K", "--json", "--objective", "latency",
		"--max-recompute", "0").Output()
	if err != nil {
		t.Fatal(err)
	}
	var want map[string]any
	if err := json.Unmarshal(out, &want); err != nil {
		t.Fatal(err)
	}
	m, err := tigris.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	zero := 0.0
	b := tigris.Budgets{Fast: 16 << 10, Objective: tigris.ObjectiveLatency, MaxRecompute: &zero}
	a, err := m.Analyze(b)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	var got map[string]any
	if err := json.Unmarshal([]byte(a.JSON()), &got); err != nil {
		t.Fatal(err)
	}
	if float64(a.ScheduledPeakBytes()) != want["scheduled_peak_bytes"].(float64) {
		t.Errorf("peak %v, CLI %v", a.ScheduledPeakBytes(), want["scheduled_peak_bytes"])
	}
	explored := got["exploration"].(map[string]any)
	if explored["chosen"] != want["exploration"].(map[string]any)["chosen"] ||
		explored["objective"] != "latency" || explored["max_recompute_percent"] != 0.0 {
		t.Errorf("exploration %v, CLI %v", explored, want["exploration"])
	}
	p, err := m.Plan(b, tigris.PlanOptions{XIP: true})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	var fromPlan map[string]any
	if err := json.Unmarshal([]byte(p.ExplorationJSON()), &fromPlan); err != nil {
		t.Fatal(err)
	}
	if fromPlan["chosen"] != explored["chosen"] {
		t.Errorf("plan's exploration chose %v, analysis %v", fromPlan["chosen"], explored["chosen"])
	}
	one, err := m.Plan(tigris.Budgets{Fast: 16 << 10}, tigris.PlanOptions{XIP: true})
	if err != nil {
		t.Fatal(err)
	}
	defer one.Close()
	if one.ExplorationJSON() != "null" {
		t.Errorf("a one-pass plan has exploration %s", one.ExplorationJSON())
	}
	_, err = m.Analyze(tigris.Budgets{Fast: 16 << 10, Objective: 7})
	if !errors.Is(err, &tigris.Error{Status: tigris.StatusInvalidArgument}) {
		t.Errorf("want TIGRIS_ERR_INVALID_ARGUMENT, got %v", err)
	}
}
