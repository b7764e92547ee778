package scenario

import (
	"regexp"
)

var placeholder = regexp.MustCompile(`\$\{(topic|group|txn|run):?([A-Za-z0-9_.-]*)\}`)

// Expander replaces placeholders in scenario strings so that every run uses
// unique Kafka names: ${topic:NAME} -> NAME-<suffix>, ${group:NAME} and
// ${txn:NAME} likewise, ${run} -> the run id.
type Expander struct {
	RunID  string
	Suffix string
}

// String expands placeholders in s.
func (e Expander) String(s string) string {
	return placeholder.ReplaceAllStringFunc(s, func(m string) string {
		sub := placeholder.FindStringSubmatch(m)
		if sub[1] == "run" {
			return e.RunID
		}
		return sub[2] + "-" + e.Suffix
	})
}

// Value expands placeholders in every string inside v (maps, slices), returning a copy.
func (e Expander) Value(v any) any {
	switch x := v.(type) {
	case string:
		return e.String(x)
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, val := range x {
			out[k] = e.Value(val)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, val := range x {
			out[i] = e.Value(val)
		}
		return out
	}
	return v
}
