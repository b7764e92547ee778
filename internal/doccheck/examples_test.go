package doccheck

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// exampleFunc matches a testable example's declaration.
var exampleFunc = regexp.MustCompile(`(?m)^func Example[A-Za-z0-9_]*\(\) \{`)

// mainPackage matches a command's package clause.
var mainPackage = regexp.MustCompile(`(?m)^package main$`)

// noExample lists the library packages exempt from TestEveryPackageHasExample,
// with the reason.
var noExample = map[string]string{
	"examples": "holds only the package doc of the example programs below it",
}

// libraryPackageDirs lists the package directories of the root module and
// of the plugin modules, relative to root, slash-separated.
func libraryPackageDirs(t *testing.T, root string) []string {
	t.Helper()
	var dirs []string
	for _, mod := range []string{".", "plugin/otel", "plugin/prom"} {
		ds, err := packageDirs(filepath.Join(root, mod))
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range ds {
			dirs = append(dirs, filepath.ToSlash(filepath.Join(mod, d)))
		}
	}
	return dirs
}

// TestEveryPackageHasExample: `go doc` of every public library package of
// the root module and of the plugin modules shows at least one Example
// (internal packages and commands are exempt).
func TestEveryPackageHasExample(t *testing.T) {
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	dirs := libraryPackageDirs(t, root)
	checked := 0
	for _, dir := range dirs {
		if dir == "internal" || strings.HasPrefix(dir, "internal/") || strings.Contains(dir, "/internal/") || noExample[dir] != "" {
			continue
		}
		entries, err := os.ReadDir(filepath.Join(root, dir))
		if err != nil {
			t.Fatal(err)
		}
		isMain, hasExample := false, false
		for _, e := range entries {
			name := e.Name()
			if !strings.HasSuffix(name, ".go") {
				continue
			}
			b, err := os.ReadFile(filepath.Join(root, dir, name))
			if err != nil {
				t.Fatal(err)
			}
			if strings.HasSuffix(name, "_test.go") {
				hasExample = hasExample || exampleFunc.Match(b)
			} else if mainPackage.Match(b) {
				isMain = true
			}
		}
		if isMain {
			continue
		}
		checked++
		if !hasExample {
			t.Errorf("package %s has no Example function (add one in an example_test.go)", dir)
		}
	}
	if checked < 10 {
		t.Fatalf("checked only %d packages: %v", checked, dirs)
	}
}

// exampleName captures a testable example's name.
var exampleName = regexp.MustCompile(`(?m)^func (Example[A-Za-z0-9_]*)\(\) \{`)

// TestReadmePointsToEveryExample keeps README.md's list of Examples and
// example programs whole: every Example function of the root and plugin
// modules is named in it (`ExampleName`, beside its package in
// backquotes: `gregor` for the root), and so is every program under
// examples/ (`name`).
func TestReadmePointsToEveryExample(t *testing.T) {
	root := testRoot(t)
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	named := func(s string) bool { return strings.Contains(string(readme), "`"+s+"`") }
	examples := 0
	for _, mod := range []string{".", "plugin/otel", "plugin/prom"} {
		dirs, err := packageDirs(filepath.Join(root, mod))
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range dirs {
			dir := filepath.ToSlash(filepath.Join(mod, d))
			files, _ := filepath.Glob(filepath.Join(root, dir, "*_test.go"))
			for _, f := range files {
				b, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				for _, m := range exampleName.FindAllSubmatch(b, -1) {
					examples++
					pkg := dir
					if pkg == "." {
						pkg = "gregor"
					}
					if !named(pkg) || !named(string(m[1])) {
						t.Errorf("README.md does not point to %s.%s (want `%s` and `%s`)", pkg, m[1], pkg, m[1])
					}
				}
			}
		}
	}
	programs, err := os.ReadDir(filepath.Join(root, "examples"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range programs {
		if p.IsDir() && !named(p.Name()) && !named("examples/"+p.Name()) {
			t.Errorf("README.md does not point to the program examples/%s", p.Name())
		}
	}
	if examples < 15 {
		t.Fatalf("found only %d Example functions; the pattern is stale", examples)
	}
}
