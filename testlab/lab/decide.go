package lab

import (
	"fmt"
	"maps"
	"strings"
)

// ObservationPrefix starts every observation line.
const ObservationPrefix = "gregor-lab "

// EnvPrefix starts the line a lab run prints once with the versions it
// actually used: "gregor-lab-env kafka=4.4.0,4.4.0,4.4.0 go=go1.26.0".
const EnvPrefix = "gregor-lab-env "

// LabTest is the go test function that runs the cases as its subtests.
const LabTest = "TestLab"

// Decide judges e and returns Passed with no reasons, or Failed with every
// reason found. It never returns Passed for evidence that lacks any part of
// what the package documentation requires.
func Decide(e *Evidence) (string, []string) {
	var why []string
	fail := func(format string, args ...any) { why = append(why, fmt.Sprintf(format, args...)) }

	if len(e.Cases) == 0 {
		fail("no cases selected")
	}
	if len(e.Commands) == 0 {
		fail("no command ran")
	}
	for _, c := range e.Commands {
		if c.ExitStatus != 0 {
			fail("command %q exited %d %s", strings.Join(c.Args, " "), c.ExitStatus, c.Error)
		}
	}
	tests := map[string]TestResult{}
	for _, t := range e.Tests {
		tests[t.Name] = t
		if t.Result == "skip" {
			fail("test %s was skipped", t.Name)
		}
	}
	if t := tests[LabTest]; t.Runs != 1 || t.Result != "pass" {
		fail("%s ran %d time(s), result %q", LabTest, t.Runs, t.Result)
	}
	lines := map[string][]string{}
	for _, o := range e.Observations {
		name, _, _ := strings.Cut(strings.TrimPrefix(o, ObservationPrefix), "=")
		lines[name] = append(lines[name], o)
	}
	want := map[string]bool{}
	for _, c := range e.Cases {
		want[c] = true
		if t := tests[LabTest+"/"+c]; t.Runs != 1 || t.Result != "pass" {
			fail("case %s: test ran %d time(s), result %q", c, t.Runs, t.Result)
		}
		switch ls := lines[c]; {
		case len(ls) == 0:
			fail("case %s: no observation line", c)
		case len(ls) > 1:
			fail("case %s: %d observation lines", c, len(ls))
		case ls[0] != ObservationPrefix+c+"=PASS":
			fail("case %s: %q", c, ls[0])
		}
	}
	for _, name := range sortedNames(lines) {
		if !want[name] {
			fail("observation line of no selected case: %q", lines[name][0])
		}
	}
	v := e.Versions
	if !allEqual(v.KafkaActual, v.KafkaExpected) {
		fail("Kafka version %v, want %q", v.KafkaActual, v.KafkaExpected)
	}
	if !allEqual(v.GoActual, v.GoExpected) {
		fail("Go version %v, want %q", v.GoActual, v.GoExpected)
	}
	switch {
	case len(e.Sources) == 0:
		fail("no source hashes")
	case !maps.Equal(e.Sources, e.SourcesEnd):
		fail("source files changed during the run: %s", changed(e.Sources, e.SourcesEnd))
	}
	if !e.Cleanup.OK {
		fail("cleanup failed: %s", e.Cleanup.Detail)
	}
	if len(why) > 0 {
		return Failed, why
	}
	return Passed, nil
}

// allEqual reports whether got is non-empty and every entry is want (which
// is non-empty).
func allEqual(got []string, want string) bool {
	if want == "" || len(got) == 0 {
		return false
	}
	for _, g := range got {
		if g != want {
			return false
		}
	}
	return true
}

func changed(a, b map[string]string) string {
	var out []string
	for _, k := range sortedNames(a) {
		if b[k] != a[k] {
			out = append(out, k)
		}
	}
	for _, k := range sortedNames(b) {
		if _, ok := a[k]; !ok {
			out = append(out, k+" (new)")
		}
	}
	if len(out) > 5 {
		out = append(out[:5], fmt.Sprintf("and %d more", len(out)-5))
	}
	return strings.Join(out, ", ")
}
