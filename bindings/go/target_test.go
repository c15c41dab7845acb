package tigris_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"tigris.local/tigris"
)

// A part with a small DTCM, so the model spills: the memories and rules are written here,
// and the expected bytes and table come from `tigris compile --target --rules`.
const partYAML = `memories:
  - {name: DTCM, size: 64K}
  - {name: SRAM, size: 512K}
  - {name: FLASH, size: 4M, read_only: true}
`

const rulesYAML = `tensors:
  - type: CONSTANT
    attributes: { memory: FLASH }
  - id: no_such_tensor
    attributes: { memory: SRAM }
`

func TestPlanForTargetMatchesCLICompile(t *testing.T) {
	dir := t.TempDir()
	part, rules := filepath.Join(dir, "part.yaml"), filepath.Join(dir, "rules.yaml")
	for path, text := range map[string]string{part: partYAML, rules: rulesYAML} {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, "cli.tgrs")
	printed, err := exec.Command(cli(t), "compile", modelPath(t), "--target", part, "--rules", rules,
		"-o", out).Output()
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	target, err := tigris.LoadTarget(part, rules)
	if err != nil {
		t.Fatal(err)
	}
	m, err := tigris.Load(modelPath(t))
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	p, err := m.PlanForTarget(target, tigris.PlanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	got, err := p.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("plan bytes differ from `tigris compile --target --rules` (%d vs %d bytes)", len(got), len(want))
	}
	memories, err := p.Memories()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, mem := range memories {
		names = append(names, mem.Name)
		// The CLI prints each memory's line as: name size used traffic role.
		line := ""
		for _, l := range strings.Split(string(printed), "\n") {
			if strings.HasPrefix(l, mem.Name+" ") {
				line = l
			}
		}
		fields := strings.Fields(line)
		if len(fields) < 4 || fields[2] != strconv.FormatInt(mem.UsedBytes, 10) || mem.PeakBytes != mem.UsedBytes {
			t.Errorf("memory %+v, the CLI printed %q", mem, line)
		}
	}
	if !reflect.DeepEqual(names, []string{"DTCM", "SRAM", "FLASH"}) {
		t.Errorf("memories %v", names)
	}
	if w := p.Warnings(); len(w) != 1 || !strings.Contains(w[0], "id 'no_such_tensor' matches no tensor") {
		t.Errorf("warnings %q", w)
	}
}

func TestBadTargetsAreNamedErrors(t *testing.T) {
	m, err := tigris.Load(modelPath(t))
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	_, err = m.PlanForTarget(tigris.Target{YAML: "memories:\n  - {name: DTCM}\n", Source: "part.yaml"},
		tigris.PlanOptions{})
	var e *tigris.Error
	if !errors.As(err, &e) || e.Status != tigris.StatusInvalidArgument || !strings.Contains(e.Message, "part.yaml:2:") {
		t.Errorf("a memory without a size: %v", err)
	}
	if _, err := tigris.LoadTarget(filepath.Join(t.TempDir(), "missing.yaml"), ""); !errors.Is(err, &tigris.Error{Status: tigris.StatusIO}) {
		t.Errorf("a missing target file: %v", err)
	}
}
