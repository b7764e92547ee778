package doccheck

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// errorPrefix matches the "word: " (or "word/word: ") that opens an error
// string: the part the vocabulary rule is about.
var errorPrefix = regexp.MustCompile(`^([a-z]+(?:/[a-z]+)?): `)

// sharedVocabulary lists the packages whose errors are the module's shared
// vocabulary and so read "gregor: ": the root package and the client's
// failure values (ErrTimeout, ErrTransport ... which every package wraps).
var sharedVocabulary = map[string]bool{".": true, "client": true}

// TestErrorPrefixes keeps one vocabulary for error strings, the Go
// convention: an error a library package makes (errors.New, fmt.Errorf, or
// a string an Error method returns) that opens with a "word: " prefix
// opens with the package's own name ("producer: ", "txn: ", "share: "),
// or "gregor: " in the shared vocabulary. Commands (package main) and the
// adapter's protocol texts are not library errors and are skipped.
func TestErrorPrefixes(t *testing.T) {
	root := testRoot(t)
	dirs, err := packageDirs(root)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, dir := range dirs {
		if strings.HasPrefix(dir, "adapter") || strings.HasPrefix(dir, "internal/") || strings.HasPrefix(dir, "cmd/") || strings.HasPrefix(dir, "examples") {
			continue
		}
		fset := token.NewFileSet()
		files, _ := filepath.Glob(filepath.Join(root, dir, "*.go"))
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			af, err := parser.ParseFile(fset, f, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			if af.Name.Name == "main" {
				continue
			}
			want := af.Name.Name + ": "
			if sharedVocabulary[dir] {
				want = "gregor: "
			}
			for _, lit := range errorStrings(af) {
				s, err := strconv.Unquote(lit.Value)
				if err != nil {
					continue
				}
				checked++
				if m := errorPrefix.FindString(s); m != "" && m != want {
					t.Errorf("%s: error %q opens with %q; this package's errors open with %q", fset.Position(lit.Pos()), s, m, want)
				}
			}
			ast.Inspect(af, func(n ast.Node) bool { // the old "gregor/pkg: " prefix anywhere
				if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING && strings.HasPrefix(lit.Value, `"gregor/`) {
					t.Errorf("%s: %s: the prefix is the package's name (%q)", fset.Position(lit.Pos()), lit.Value, want)
				}
				return true
			})
		}
	}
	if checked < 100 {
		t.Fatalf("only %d error strings found: the scan is broken", checked)
	}
}

// errorStrings returns the string literals that start an error: the first
// argument of errors.New and fmt.Errorf, the msg of a composite literal
// (the packages' wrapErr/classErr values) and the first string of what an
// Error() string method returns.
func errorStrings(f *ast.File) []*ast.BasicLit {
	var out []*ast.BasicLit
	first := func(e ast.Expr) {
		for {
			switch x := e.(type) {
			case *ast.BinaryExpr:
				e = x.X
				continue
			case *ast.CallExpr: // closedError("..."), fmt.Sprintf("...")
				if len(x.Args) > 0 {
					e = x.Args[0]
					continue
				}
			case *ast.BasicLit:
				if x.Kind == token.STRING {
					out = append(out, x)
				}
			}
			return
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.CallExpr:
			if sel, ok := x.Fun.(*ast.SelectorExpr); ok && len(x.Args) > 0 {
				if id, ok := sel.X.(*ast.Ident); ok && (id.Name == "errors" && sel.Sel.Name == "New" || id.Name == "fmt" && sel.Sel.Name == "Errorf") {
					first(x.Args[0])
				}
			}
		case *ast.KeyValueExpr:
			if k, ok := x.Key.(*ast.Ident); ok && k.Name == "msg" {
				first(x.Value)
			}
		case *ast.FuncDecl:
			if x.Recv != nil && x.Name.Name == "Error" && x.Body != nil {
				ast.Inspect(x.Body, func(n ast.Node) bool {
					if r, ok := n.(*ast.ReturnStmt); ok && len(r.Results) == 1 {
						first(r.Results[0])
					}
					return true
				})
			}
		}
		return true
	})
	return out
}
