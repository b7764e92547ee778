package jsonfile

import (
	"os"
	"path/filepath"
	"testing"
)

// TestWriteReplacesAtomically writes twice into a directory Write creates:
// the file holds the second value as indented JSON and no temp file stays.
func TestWriteReplacesAtomically(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "new")
	path := filepath.Join(dir, "e.json")
	for _, v := range []map[string]int{{"a": 1}, {"b": 2}} {
		if err := Write(path, ".e-*", v); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := "{\n  \"b\": 2\n}\n"; string(got) != want {
		t.Fatalf("file = %q, want %q", got, want)
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) != 1 {
		t.Fatalf("directory holds %d entries, want only e.json", len(ents))
	}
}

// TestWriteRejectsUnencodable leaves no file behind for a value JSON
// cannot encode.
func TestWriteRejectsUnencodable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "e.json")
	if err := Write(path, ".e-*", func() {}); err == nil {
		t.Fatal("Write of a func succeeded")
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("Stat = %v, want not exist", err)
	}
}
