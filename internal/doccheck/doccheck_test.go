package doccheck

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// selfDir is this package's directory; its testdata holds a deliberately
// undocumented package, which the walk skips like every testdata.
const selfDir = "internal/doccheck"

// TestDocComments fails for every documentation gap in every package of the
// root module.
func TestDocComments(t *testing.T) {
	root := testRoot(t)
	dirs, err := packageDirs(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) == 0 {
		t.Fatalf("no package directories under %s", root)
	}
	for _, dir := range dirs {
		gaps, err := docGaps(root, dir)
		if err != nil {
			t.Errorf("%s: %v", dir, err)
			continue
		}
		for _, g := range gaps {
			t.Errorf("%s", g)
		}
	}
	t.Logf("%d packages checked", len(dirs))
}

// testRoot returns the root module's directory or fails the test.
func testRoot(t *testing.T) string {
	t.Helper()
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// moduleRoot returns the directory of the root module's go.mod, found by
// walking up from the test's working directory.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod above %s", dir)
		}
		dir = parent
	}
}

// packageDirs returns, relative to root and slash-separated, every directory
// of the root module holding a non-test Go file. It skips testdata, hidden
// and underscore directories, and nested modules.
func packageDirs(root string) ([]string, error) {
	var dirs []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			name := d.Name()
			if rel != "." && (name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			if rel != "." {
				if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
					return filepath.SkipDir // a nested module
				}
			}
			return nil
		}
		if isSource(d.Name()) {
			dir := filepath.ToSlash(filepath.Dir(rel))
			if len(dirs) == 0 || dirs[len(dirs)-1] != dir {
				dirs = append(dirs, dir)
			}
		}
		return nil
	})
	slices.Sort(dirs)
	return slices.Compact(dirs), err
}

// isSource reports a Go file that is not a test.
func isSource(name string) bool {
	return strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go")
}

// docGaps parses the non-test Go files of dir (relative to root) and
// returns one line per gap: a missing doc.go, or an exported top-level
// identifier without a doc comment ("file:line: kind Name").
func docGaps(root, dir string) ([]string, error) {
	fset := token.NewFileSet()
	entries, err := os.ReadDir(filepath.Join(root, dir))
	if err != nil {
		return nil, err
	}
	var gaps []string
	hasDocGo := false
	for _, e := range entries {
		if e.IsDir() || !isSource(e.Name()) {
			continue
		}
		if e.Name() == "doc.go" {
			hasDocGo = true
		}
		f, err := parser.ParseFile(fset, filepath.Join(root, dir, e.Name()), nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		for _, decl := range f.Decls {
			for _, g := range declGaps(decl) {
				pos := fset.Position(g.pos)
				gaps = append(gaps, fmt.Sprintf("%s/%s:%d: %s has no doc comment", dir, e.Name(), pos.Line, g.what))
			}
		}
	}
	if !hasDocGo {
		gaps = append(gaps, dir+": no doc.go with the package overview")
	}
	return gaps, nil
}

// gap is one exported identifier without a doc comment.
type gap struct {
	pos  token.Pos
	what string
}

// declGaps returns the undocumented exported identifiers of one top-level
// declaration. A method counts only on an exported receiver type. In a
// grouped const or var block, a doc comment on the group documents every
// name in it; a grouped type needs its own.
func declGaps(decl ast.Decl) []gap {
	switch d := decl.(type) {
	case *ast.FuncDecl:
		if !d.Name.IsExported() || d.Doc != nil {
			return nil
		}
		if d.Recv == nil {
			return []gap{{d.Pos(), "func " + d.Name.Name}}
		}
		recv := receiverType(d.Recv.List[0].Type)
		if !ast.IsExported(recv) {
			return nil
		}
		return []gap{{d.Pos(), "method " + recv + "." + d.Name.Name}}
	case *ast.GenDecl:
		grouped := d.Lparen.IsValid()
		var gaps []gap
		for _, spec := range d.Specs {
			switch s := spec.(type) {
			case *ast.TypeSpec:
				documented := s.Doc != nil || (!grouped && d.Doc != nil)
				if s.Name.IsExported() && !documented {
					gaps = append(gaps, gap{s.Pos(), "type " + s.Name.Name})
				}
			case *ast.ValueSpec:
				if s.Doc != nil || d.Doc != nil {
					continue
				}
				for _, n := range s.Names {
					if n.IsExported() {
						gaps = append(gaps, gap{n.Pos(), d.Tok.String() + " " + n.Name})
					}
				}
			}
		}
		return gaps
	}
	return nil
}

// receiverType returns the name of a method's receiver type, without
// pointer or type parameters.
func receiverType(expr ast.Expr) string {
	for {
		switch e := expr.(type) {
		case *ast.StarExpr:
			expr = e.X
		case *ast.IndexExpr:
			expr = e.X
		case *ast.IndexListExpr:
			expr = e.X
		case *ast.ParenExpr:
			expr = e.X
		case *ast.Ident:
			return e.Name
		default:
			return ""
		}
	}
}
