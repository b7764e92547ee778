package assign

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/internal/kafkatest"
)

var update = flag.Bool("update", false, "rewrite testdata/cases.json and testdata/golden.json with Java's answers")

const (
	casesFile  = "testdata/cases.json"
	goldenFile = "testdata/golden.json"
	oracleFile = "testdata/AssignorOracle.java"
)

func casesJSON(t *testing.T) []byte {
	t.Helper()
	b, err := json.MarshalIndent(goldenCases(), "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return append(b, '\n')
}

// TestAssignmentsMatchJavaGolden compares gregor's assignments with those
// Java's assignors computed for the same cases (offline).
func TestAssignmentsMatchJavaGolden(t *testing.T) {
	onDisk, err := os.ReadFile(casesFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(onDisk, casesJSON(t)) {
		t.Fatalf("%s is not goldenCases(): run go test -run TestGoldenMatchesJava -update ./consumer/assign/", casesFile)
	}
	var golden []oracleResult
	loadJSON(t, goldenFile, &golden)
	cases := goldenCases()
	if len(golden) != len(cases) {
		t.Fatalf("%s has %d cases, goldenCases %d", goldenFile, len(golden), len(cases))
	}
	rounds := 0
	for i, c := range cases {
		if golden[i].Name != c.Name {
			t.Fatalf("golden case %d is %q, want %q", i, golden[i].Name, c.Name)
		}
		compareRounds(t, c, golden[i], runCase(c))
		rounds += len(golden[i].Rounds)
	}
	t.Logf("%d cases, %d assignments compared with Java's", len(cases), rounds)
}

// TestGoldenMatchesJava runs the oracle with Java's assignors (the
// kafka-clients jar of the test bed) and checks that the golden file is
// what Java computes today, so that the golden cannot rot. It needs a JDK
// (java >= 17) and the test bed's jars, and fails without them.
func TestGoldenMatchesJava(t *testing.T) {
	out := runOracle(t, casesJSON(t))
	var fromJava []oracleResult
	if err := json.Unmarshal(out, &fromJava); err != nil {
		t.Fatalf("oracle output: %v\n%s", err, out)
	}
	if *update {
		if err := os.WriteFile(casesFile, casesJSON(t), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(goldenFile, out, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s and %s", casesFile, goldenFile)
		return
	}
	var golden []oracleResult
	loadJSON(t, goldenFile, &golden)
	a, _ := json.Marshal(golden)
	b, _ := json.Marshal(fromJava)
	if !bytes.Equal(a, b) {
		t.Fatalf("%s differs from what Java computes now: run go test -run TestGoldenMatchesJava -update ./consumer/assign/ and review the diff", goldenFile)
	}
}

// runOracle runs testdata/AssignorOracle.java over cases (cases.json's
// shape) with Java's assignors, the kafka-clients jar of the test bed,
// passing args after the input and output files, and returns its output
// (with a final newline, as golden.json keeps it). It needs a JDK (java
// >= 17) and the test bed's jars, and fails the test without them. Java
// may take until shortly before the test binary's -timeout.
func runOracle(t *testing.T, cases []byte, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	if dl, ok := t.Deadline(); ok {
		cancel()
		ctx, cancel = context.WithDeadline(context.Background(), dl.Add(-10*time.Second)) // the test's own bound (go test -timeout)
	}
	defer cancel()
	jars, err := kafkatest.EnsureJars(ctx, t.Logf)
	if err != nil {
		t.Fatalf("the test bed's Kafka jars are needed to run Java's assignors: %v", err)
	}
	java, err := exec.LookPath("java")
	if h := os.Getenv("JAVA_HOME"); h != "" {
		java, err = filepath.Join(h, "bin", "java"), nil
	}
	if err != nil {
		t.Fatalf("java (JDK >= 17) is needed to run Java's assignors: %v", err)
	}
	in := filepath.Join(t.TempDir(), "cases.json")
	if err := os.WriteFile(in, cases, 0o644); err != nil {
		t.Fatal(err)
	}
	outFile := filepath.Join(t.TempDir(), "golden.json")
	argv := append([]string{"-XX:-UsePerfData", "-cp", filepath.Join(jars, "*"), oracleFile, in, outFile}, args...)
	cmd := exec.CommandContext(ctx, java, argv...)
	if log, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("java %s: %v\n%s", oracleFile, err, log)
	}
	out, err := os.ReadFile(outFile)
	if err != nil {
		t.Fatal(err)
	}
	return append(out, '\n')
}
