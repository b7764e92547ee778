package doccheck

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// quickStartLead is how many comment lines may come before a package
// doc's "# Quick start": the package sentence (what it is for) and the
// blank line after it.
const quickStartLead = 5

// TestPackageDocsOpenWithQuickStart keeps the user's contract readable:
// the doc.go comment of every public library package of the root module
// and of the plugin modules (internal packages, commands and examples/ are
// exempt) opens with the package sentence, then "# Quick start" within
// quickStartLead lines, as its first heading; the contract and the
// details follow.
func TestPackageDocsOpenWithQuickStart(t *testing.T) {
	root := testRoot(t)
	dirs := libraryPackageDirs(t, root)
	checked := 0
	for _, dir := range dirs {
		if strings.HasPrefix(dir, "internal/") || strings.Contains(dir, "/internal/") || strings.HasPrefix(dir, "examples") ||
			strings.HasPrefix(dir, "cmd/") || strings.Contains(dir, "/cmd/") {
			continue
		}
		src, err := os.ReadFile(filepath.Join(root, dir, "doc.go"))
		if err != nil {
			t.Errorf("%s: %v", dir, err)
			continue
		}
		checked++
		for i, line := range strings.Split(string(src), "\n") {
			if !strings.HasPrefix(line, "//") {
				t.Errorf("%s/doc.go: no # Quick start heading", dir)
				break
			}
			if strings.HasPrefix(line, "// # ") {
				if line != "// # Quick start" {
					t.Errorf("%s/doc.go:%d: first heading %q, want # Quick start", dir, i+1, strings.TrimPrefix(line, "// "))
				} else if i > quickStartLead {
					t.Errorf("%s/doc.go:%d: # Quick start after %d lines, want at most %d before it", dir, i+1, i, quickStartLead)
				}
				break
			}
		}
	}
	if checked < 10 {
		t.Fatalf("checked only %d packages", checked)
	}
}
