package tigris

// target.go: planning for a part's memories (docs/memories.md): a target description and
// optional placement rules, as `tigris compile --target T.yaml --rules R.yaml`.

import (
	"encoding/json"
	"os"
	"strings"
)

// Target is a part's memories: YAML is the text of a target description and Source the
// name its messages use (its file name). Rules, when not empty, is the text of placement
// rules, named RulesSource.
type Target struct {
	YAML, Source       string
	Rules, RulesSource string
}

// LoadTarget reads a target description from targetPath and, unless rulesPath is "",
// placement rules from rulesPath; the library parses both when planning.
func LoadTarget(targetPath, rulesPath string) (Target, error) {
	t := Target{Source: targetPath, RulesSource: rulesPath}
	data, err := os.ReadFile(targetPath)
	if err != nil {
		return Target{}, &Error{Status: StatusIO, Message: err.Error()}
	}
	t.YAML = string(data)
	if rulesPath != "" {
		rules, err := os.ReadFile(rulesPath)
		if err != nil {
			return Target{}, &Error{Status: StatusIO, Message: err.Error()}
		}
		t.Rules = string(rules)
	}
	return t, nil
}

// PlanForTarget compiles an execution plan for the target's memories instead of budgets
// (tigris_plan_for_target): scratch in the fastest writable memory, spills in the next
// with room, the plan in the target's plan memory, unless the rules place them.
func (m *Model) PlanForTarget(t Target, o PlanOptions) (*Plan, error) {
	if err := m.closed(); err != nil {
		return nil, err
	}
	h, err := makePlanForTarget(m.h, t, o)
	if err != nil {
		return nil, err
	}
	return newPlan(h), nil
}

// MemoryUse is what a plan keeps in one memory of its target (tigris_plan_memories_json).
type MemoryUse struct {
	Name         string `json:"name"`
	Size         int64  `json:"size"`
	UsedBytes    int64  `json:"used_bytes"`
	PeakBytes    int64  `json:"peak_bytes"`
	TrafficBytes int64  `json:"traffic_bytes"`
	Role         string `json:"role"` // "scratch", "spills", "plan", ... joined by "+"
}

// Memories is the table `tigris compile` prints: every memory of the target in order.
func (p *Plan) Memories() ([]MemoryUse, error) {
	if err := p.closed(); err != nil {
		return nil, err
	}
	var out []MemoryUse
	if err := json.Unmarshal([]byte(planMemoriesJSON(p.h)), &out); err != nil {
		return nil, &Error{Status: StatusInternal, Message: err.Error()}
	}
	return out, nil
}

// Warnings are the planner's warnings, one per entry: placement rules whose ids match no
// tensor.
func (p *Plan) Warnings() []string {
	if p.h == nil {
		return nil
	}
	var out []string
	for _, line := range strings.Split(planWarnings(p.h), "\n") {
		if line != "" {
			out = append(out, line)
		}
	}
	return out
}
