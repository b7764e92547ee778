package lab

import (
	"bufio"
	"encoding/json"
	"io"
	"slices"
	"strings"
)

// testEvent is one line of `go test -json` (cmd/test2json).
type testEvent struct {
	Action string `json:"Action"`
	Test   string `json:"Test"`
	Output string `json:"Output"`
}

// parseTestJSON reads a `go test -json` stream into e: every test's runs
// and final action, counts per action, the observation lines and the
// versions of the env line. Lines that are not JSON (build errors) are
// ignored here; the command's exit status reports them.
func parseTestJSON(r io.Reader, e *Evidence) error {
	results := map[string]*TestResult{}
	var order []string
	var partial strings.Builder
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var ev testEvent
		if json.Unmarshal(sc.Bytes(), &ev) != nil {
			continue
		}
		if ev.Test != "" && results[ev.Test] == nil {
			results[ev.Test] = &TestResult{Name: ev.Test}
			order = append(order, ev.Test)
		}
		switch ev.Action {
		case "run":
			results[ev.Test].Runs++
		case "pass", "fail", "skip":
			if ev.Test != "" {
				results[ev.Test].Result = ev.Action
			}
		case "output":
			// test2json may split a long line over events; join them.
			partial.WriteString(ev.Output)
			if strings.HasSuffix(ev.Output, "\n") {
				observeLine(strings.TrimSuffix(partial.String(), "\n"), e)
				partial.Reset()
			}
		}
	}
	if e.TestCounts == nil {
		e.TestCounts = map[string]int{}
	}
	for _, name := range order {
		t := *results[name]
		e.Tests = append(e.Tests, t)
		res := t.Result
		if res == "" {
			res = "unfinished"
		}
		e.TestCounts[res]++
	}
	return sc.Err()
}

// observeLine records an observation or env line (exact prefixes at the start
// of the line; t.Log output is indented and never matches).
func observeLine(l string, e *Evidence) {
	switch {
	case strings.HasPrefix(l, ObservationPrefix):
		e.Observations = append(e.Observations, l)
	case strings.HasPrefix(l, EnvPrefix):
		for _, f := range strings.Fields(strings.TrimPrefix(l, EnvPrefix)) {
			k, v, _ := strings.Cut(f, "=")
			vs := strings.Split(v, ",")
			switch k {
			case "kafka":
				e.Versions.KafkaActual = append(e.Versions.KafkaActual, vs...)
			case "go":
				e.Versions.GoActual = append(e.Versions.GoActual, vs...)
			}
		}
	}
}

func sortedNames[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}
