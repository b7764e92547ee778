package main

import (
	"strings"
	"testing"
)

const shipped = "../../scenarios"

func TestSelectScenarios(t *testing.T) {
	all, err := selectScenarios(shipped, "")
	if err != nil || len(all) < 2 {
		t.Fatalf("all: %d scenarios, %v", len(all), err)
	}
	one, err := selectScenarios(shipped, "^"+all[0].ID+"$")
	if err != nil || len(one) != 1 || one[0].ID != all[0].ID {
		t.Fatalf("exact id: %v, %v", one, err)
	}
	if scs, err := selectScenarios(shipped, "^nomatch$"); err == nil || !strings.Contains(err.Error(), "matches no scenario id") {
		t.Fatalf("no match: %d scenarios, error %v", len(scs), err)
	}
	if _, err := selectScenarios(shipped, "("); err == nil || !strings.HasPrefix(err.Error(), "-run:") {
		t.Fatalf("bad regexp: error %v", err)
	}
}

func TestPlural(t *testing.T) {
	for n, want := range map[int]string{0: "0 scenarios", 1: "1 scenario", 36: "36 scenarios"} {
		if got := plural(n, "scenario"); got != want {
			t.Errorf("plural(%d) = %q, want %q", n, got, want)
		}
	}
}
