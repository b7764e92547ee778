package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// readmeGoBlock returns the README's quick start program: the first fenced
// go block after the "### Quick start" heading.
func readmeGoBlock(t *testing.T) []byte {
	t.Helper()
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := bytes.Cut(readme, []byte("\n### Quick start\n"))
	if !ok {
		t.Fatal(`README.md has no "### Quick start" heading`)
	}
	_, rest, ok = bytes.Cut(rest, []byte("\n```go\n"))
	if !ok {
		t.Fatal("README.md's quick start has no ```go block")
	}
	block, _, ok := bytes.Cut(rest, []byte("\n```\n"))
	if !ok {
		t.Fatal("README.md's quick start go block is not closed")
	}
	return append(block, '\n')
}

// TestReadmeShowsMain fails when the README's quick start and main.go
// differ: the README shows the program that the tests run.
func TestReadmeShowsMain(t *testing.T) {
	main, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	if got := readmeGoBlock(t); !bytes.Equal(got, main) {
		t.Fatalf("README.md's quick start differs from examples/quickstart/main.go; copy main.go into the README\nREADME:\n%s", got)
	}
}

// TestFreshModule follows the README's quick start steps in a new module
// outside the repository (go mod init, go mod edit -replace, go mod tidy)
// and builds the program, as a user on a fresh machine would.
func TestFreshModule(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.go"), readmeGoBlock(t), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"mod", "init", "example.com/hello-gregor"},
		{"mod", "edit", "-replace", "github.com/gregor-kafka/gregor=" + root},
		{"mod", "tidy"},
		{"build", "-o", filepath.Join(dir, "hello-gregor"), "."},
	} {
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=", "GOWORK=off")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}
