package doccheck

import (
	"go/parser"
	"go/token"
	"slices"
	"strings"
	"testing"
)

// sample has one documented and one undocumented identifier of each kind
// the check knows; the undocumented exported ones are named Bad*.
const sample = `package sample

// Good is documented.
func Good() {}
func BadFunc() {}
func unexported() {}

// T is documented.
type T struct{}
type BadType struct{}
type hidden struct{}

// Documented is documented.
func (T) Documented() {}
func (*T) BadMethod() {}
func (hidden) Exported() {}

// G is generic.
type G[K comparable, V any] struct{}
func (g *G[K, V]) BadGeneric() {}

// Types in a group each need their own doc.
type (
	// InGroup is documented.
	InGroup int
	BadInGroup int
)

// Levels: a doc on a const group documents every name in it.
const (
	Low = iota
	High
)

const (
	// Own has its own doc.
	Own = 1
	BadConst = 2 // a trailing comment is not a doc comment
)

// V is documented.
var V, W int
var BadVar int
var unexportedVar int
`

func TestDeclGaps(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "sample.go", sample, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range f.Decls {
		for _, g := range declGaps(d) {
			got = append(got, g.what)
		}
	}
	want := []string{"func BadFunc", "type BadType", "method T.BadMethod", "method G.BadGeneric",
		"type BadInGroup", "const BadConst", "var BadVar"}
	if !slices.Equal(got, want) {
		t.Errorf("gaps %q, want %q", got, want)
	}
}

func TestDocGapsMissingDocGo(t *testing.T) {
	root := testRoot(t)
	gaps, err := docGaps(root, selfDir+"/testdata/nodocgo")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		selfDir + "/testdata/nodocgo/a.go:5: func Undocumented has no doc comment",
		selfDir + "/testdata/nodocgo: no doc.go with the package overview",
	}
	if !slices.Equal(gaps, want) {
		t.Errorf("gaps %q, want %q", gaps, want)
	}
}

// TestPackageDirs checks the walk that TestDocComments relies on: it must
// reach the root module's packages at every depth, commands included, and
// leave out nested modules and testdata, so a broken walk cannot pass the
// check by finding nothing.
func TestPackageDirs(t *testing.T) {
	root := testRoot(t)
	dirs, err := packageDirs(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"wire", "client", "producer", "adapter/internal/protocol", "adapter/cmd/gregor-adapter",
		"internal/kafkatest", "internal/kafkatest/cmd/kafka-local", selfDir} {
		if !slices.Contains(dirs, want) {
			t.Errorf("package dir %s not found; got %q", want, dirs)
		}
	}
	for _, d := range dirs {
		if d == "testlab" || d == "bench" || strings.HasPrefix(d, "testlab/") || strings.HasPrefix(d, "bench/") ||
			strings.Contains(d, "testdata") {
			t.Errorf("package dir %s is a nested module or testdata; the walk must skip it", d)
		}
	}
	if !slices.IsSorted(dirs) || len(slices.Compact(slices.Clone(dirs))) != len(dirs) {
		t.Errorf("package dirs not sorted and unique: %q", dirs)
	}
}
