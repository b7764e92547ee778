// Package jsonfile writes a value as a JSON file atomically, so that a
// reader sees the old file or the whole new one, never a partial write: the
// lab's and the runner's evidence records.
package jsonfile

import (
	"encoding/json"
	"os"
	"path/filepath"
)

// Write stores v at path as indented JSON and a newline, atomically: a
// temp file named by pattern (as os.CreateTemp takes it) in path's
// directory, which is created when missing, then a rename over path. The
// temp file is removed when writing it fails.
func Write(path, pattern string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), pattern)
	if err != nil {
		return err
	}
	if _, err := f.Write(append(data, '\n')); err != nil {
		f.Close()
		os.Remove(f.Name())
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return err
	}
	return os.Rename(f.Name(), path)
}
