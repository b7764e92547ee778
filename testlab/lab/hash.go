package lab

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// skipDirs are directories whose files are outputs, not sources.
var skipDirs = map[string]bool{".git": true, ".kafka": true, "bin": true, "evidence": true, "results": true}

// HashSources returns the SHA-256 (hex) of every source file under root
// (.go, go.mod, go.sum, pom.xml, Makefile, *.json scenarios and *.py
// generators), keyed by slash-separated path relative to root. Output
// directories (.git, .kafka, bin, evidence, results) are not walked.
func HashSources(root string) (map[string]string, error) {
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != root && (skipDirs[d.Name()] || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !isSource(d.Name()) {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		out[filepath.ToSlash(rel)] = hex.EncodeToString(sum[:])
		return nil
	})
	return out, err
}

func isSource(name string) bool {
	switch name {
	case "go.mod", "go.sum", "pom.xml", "Makefile":
		return true
	}
	for _, ext := range []string{".go", ".json", ".py"} {
		if strings.HasSuffix(name, ext) {
			return true
		}
	}
	return false
}
