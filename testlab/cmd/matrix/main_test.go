package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestMatrix: verdict lines are read from testlab's output and laid out
// one column per version; a scenario missing from a run shows "-", and
// every verdict but passed is listed with its reason.
func TestMatrix(t *testing.T) {
	a := parse(strings.NewReader("testlab: 2 scenarios\nSCENARIO VERDICT SECONDS FIRST FAILURE\n" +
		"share-accept-all                             ineligible      0.4  the broker lacks KIP-932 share groups\n" +
		"txn-commit                                   passed          2.1  \n\n1 passed, 0 failed\n"))
	b := parse(strings.NewReader("txn-commit                                   failed          2.1  boom\n"))
	var out bytes.Buffer
	write(&out, []string{"3.7.2", "4.4.0"}, map[string]map[string]verdict{"3.7.2": a, "4.4.0": b})
	for _, want := range []string{
		"| share-accept-all | ineligible | - |",
		"| txn-commit | passed | failed |",
		"- 3.7.2 share-accept-all ineligible: the broker lacks KIP-932 share groups",
		"- 4.4.0 txn-commit failed: boom",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("missing %q in\n%s", want, out.String())
		}
	}
}
