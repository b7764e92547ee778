package doccheck

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestInternalsNamesExist keeps INTERNALS.md true to the tree, as
// TestProtocolDocCoversEveryKind does for adapter/PROTOCOL.md: every file
// path it names in backquotes exists (from the root, or as the tail of an
// existing path), and every Go identifier it names is
// declared somewhere in the repository's Go files (the root module and the
// nested testlab and bench modules, tests included). Each failure names
// INTERNALS.md:line and the missing name.
func TestInternalsNamesExist(t *testing.T) {
	root := testRoot(t)
	decls, err := declaredNames(root)
	if err != nil {
		t.Fatal(err)
	}
	tree, err := treePaths(root)
	if err != nil {
		t.Fatal(err)
	}
	refs, err := internalsRefs(filepath.Join(root, "INTERNALS.md"))
	if err != nil {
		t.Fatal(err)
	}
	files, idents := 0, 0
	for _, r := range refs {
		if r.isPath() {
			files++
			if !r.pathExists(tree) {
				t.Errorf("INTERNALS.md:%d: no file or directory %s in the tree", r.line, r.text)
			}
			continue
		}
		if name, ok := r.ident(); ok {
			idents++
			if !decls.has(name) {
				t.Errorf("INTERNALS.md:%d: Go identifier %s is declared nowhere in the tree", r.line, name)
			}
		}
	}
	t.Logf("%d file paths and %d identifiers checked", files, idents)
	if files < 100 || idents < 100 {
		t.Errorf("only %d file paths and %d identifiers found; the extraction is stale", files, idents)
	}
}

// ref is one backquoted span of INTERNALS.md.
type ref struct {
	line int
	text string
}

var (
	codeSpan = regexp.MustCompile("`([^`]+)`")
	// goIdent is a Go name, optionally qualified (pkg.Name, Type.Method,
	// recv.field), pointed to (*Name) or called (Name(), Name(t)).
	goIdent = regexp.MustCompile(`^\*?([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)?)(?:\(.*\))?$`)
	// pathLike is a relative path: lower-case directories, then a file
	// with an extension, a directory ending in a slash, or a Makefile; a
	// <placeholder>, * or {a,b} may stand for part of a name.
	pathLike = regexp.MustCompile(`^([a-z0-9_.<>*{},-]+/)*([A-Za-z0-9_<>*{},-]+\.(go|md|json|py|sh|java|mod|txt|yml|properties)|[a-z0-9_<>*{},-]+/|Makefile)$`)
	dirLike  = regexp.MustCompile(`^[a-z0-9_-]+(/[a-z0-9_*<>-]+)+$`)
)

// internalsRefs reads every backquoted span of the file outside fenced
// code blocks.
func internalsRefs(path string) ([]ref, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var refs []ref
	fenced := false
	for i, line := range strings.Split(string(src), "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			continue
		}
		if fenced {
			continue
		}
		for _, m := range codeSpan.FindAllStringSubmatch(line, -1) {
			refs = append(refs, ref{line: i + 1, text: strings.TrimSpace(m[1])})
		}
	}
	return refs, nil
}

// isPath reports a span naming a file (by extension) or a directory (with
// a slash inside or at the end).
func (r ref) isPath() bool {
	return pathLike.MatchString(r.text) || dirLike.MatchString(r.text)
}

// pathExists reports whether some path of the tree is the span or ends
// with it (so `share/consumer.go` names consumer/share/consumer.go and
// `fetcher.go` in the consumer section consumer/fetcher.go): a
// <placeholder> or * matches part of one name, {a,b} either alternative.
func (r ref) pathExists(tree []string) bool {
	for _, alt := range expandBraces(strings.TrimSuffix(r.text, "/")) {
		pat := regexp.QuoteMeta(alt)
		pat = regexp.MustCompile(`<[^>]*>|\\\*`).ReplaceAllString(pat, `[^/]*`)
		re := regexp.MustCompile(`(^|/)` + pat + `$`)
		if !slices.ContainsFunc(tree, re.MatchString) {
			return false
		}
	}
	return true
}

// expandBraces expands one level of {a,b} alternatives.
func expandBraces(s string) []string {
	i, j := strings.Index(s, "{"), strings.Index(s, "}")
	if i < 0 || j < i {
		return []string{s}
	}
	var out []string
	for _, alt := range strings.Split(s[i+1:j], ",") {
		out = append(out, s[:i]+alt+s[j+1:])
	}
	return out
}

// treePaths returns every file and directory under root, relative and
// slash-separated, skipping hidden directories (.git, .kafka), bin and
// testlab/evidence.
func treePaths(root string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil || rel == "." {
			return err
		}
		rel = filepath.ToSlash(rel)
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") || rel == "bin" || rel == "testlab/evidence") {
			return filepath.SkipDir
		}
		out = append(out, rel)
		return nil
	})
	return out, err
}

// ident returns the Go name of a span that can only be one: qualified or called,
// or with an upper-case letter. A lower-case word alone is left out, as it
// may be a Kafka config, protocol value or plain word; so are names in
// ALL_CAPS (Kafka error names) and Java or other modules' names, which
// INTERNALS.md writes with their package (kgo., kmsg., org.apache).
func (r ref) ident() (string, bool) {
	m := goIdent.FindStringSubmatch(r.text)
	if m == nil {
		return "", false
	}
	name := m[1]
	if strings.ToUpper(name) == name {
		return "", false // ALL_CAPS: a Kafka error or an environment variable
	}
	first, _, qualified := strings.Cut(name, ".")
	if qualified && externalQualifier[first] {
		return "", false
	}
	called := strings.HasSuffix(r.text, ")")
	return name, qualified || called || strings.ToLower(name) != name
}

// externalQualifier names packages outside this repository that
// INTERNALS.md mentions (franz-go, the standard library, Java).
var externalQualifier = map[string]bool{
	"kgo": true, "kadm": true, "kmsg": true, "sarama": true, "context": true, "time": true, "sync": true,
	"errors": true, "net": true, "io": true, "os": true, "runtime": true, "atomic": true, "tls": true,
	"http": true, "json": true, "bytes": true, "fmt": true, "slices": true, "testing": true, "bufio": true,
	"slog": true, "lz4": true, "snappy": true, "zstd": true, "scram": true,
	"TransactionManager": true, "KafkaProducer": true, "KafkaConsumer": true, // Java's
}

// names is every name declared in the tree: bare, and qualified by
// package, receiver type, or struct or interface type.
type names map[string]bool

// has reports a name: bare, Type.Member or pkg.Name; a qualifier that is
// no declared type or package (a variable: p.next) needs only the member.
func (n names) has(name string) bool {
	if n[name] {
		return true
	}
	q, member, ok := strings.Cut(name, ".")
	if !ok {
		return false
	}
	if n["type "+q] || n["package "+q] {
		return false
	}
	return n[member]
}

// declaredNames parses every Go file under root (nested modules and tests
// included, testdata and hidden directories not).
func declaredNames(root string) (names, error) {
	n := names{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if path != root && (name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		n.addFile(f)
		return nil
	})
	return n, err
}

// addFile records a file's package name and every name it declares at top
// level, in structs and interfaces, as methods, and in function bodies.
func (n names) addFile(f *ast.File) {
	pkg := f.Name.Name
	n["package "+pkg] = true
	ast.Inspect(f, func(node ast.Node) bool {
		switch x := node.(type) {
		case *ast.FuncDecl:
			n.add(pkg, x.Name.Name)
			if x.Recv != nil {
				n[receiverType(x.Recv.List[0].Type)+"."+x.Name.Name] = true
			}
		case *ast.TypeSpec:
			n.add(pkg, x.Name.Name)
			n["type "+x.Name.Name] = true
			n.addMembers(x.Name.Name, x.Type)
		case *ast.ValueSpec:
			for _, id := range x.Names {
				n.add(pkg, id.Name)
			}
		case *ast.AssignStmt:
			if x.Tok == token.DEFINE {
				for _, e := range x.Lhs {
					if id, ok := e.(*ast.Ident); ok {
						n[id.Name] = true
					}
				}
			}
		case *ast.Field:
			for _, id := range x.Names {
				n[id.Name] = true
			}
		}
		return true
	})
}

func (n names) add(pkg, name string) {
	n[name] = true
	n[pkg+"."+name] = true
}

// addMembers records a struct's fields and an interface's methods as
// Type.Member.
func (n names) addMembers(typ string, expr ast.Expr) {
	var fields *ast.FieldList
	switch t := expr.(type) {
	case *ast.StructType:
		fields = t.Fields
	case *ast.InterfaceType:
		fields = t.Methods
	default:
		return
	}
	for _, f := range fields.List {
		for _, id := range f.Names {
			n[typ+"."+id.Name] = true
		}
		if len(f.Names) == 0 { // embedded: its name is the member
			if name := receiverType(f.Type); name != "" {
				n[typ+"."+name] = true
			}
		}
	}
}

// newcomerTraces are the changes INTERNALS.md section 7 must trace, each
// naming the files it touches.
var newcomerTraces = []string{
	"Add an adapter command", "Add a retriable error", "Add a fetch-loop step",
	"Add a producer config", "Add an admin call",
}

// TestInternalsTraces checks that section 7 of INTERNALS.md holds a trace
// for each of newcomerTraces and that each trace names at least two files
// (TestInternalsNamesExist checks that they exist).
func TestInternalsTraces(t *testing.T) {
	root := testRoot(t)
	refs, err := internalsRefs(filepath.Join(root, "INTERNALS.md"))
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join(root, "INTERNALS.md"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(src), "\n")
	for _, title := range newcomerTraces {
		start := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "**"+title+"**") })
		if start < 0 {
			t.Errorf("INTERNALS.md: no trace %q (a line starting **%s**) in section 7", title, title)
			continue
		}
		end := start + 1
		for end < len(lines) && !strings.HasPrefix(lines[end], "**") && !strings.HasPrefix(lines[end], "#") {
			end++
		}
		files := 0
		for _, r := range refs {
			if r.line > start && r.line <= end && r.isPath() {
				files++
			}
		}
		if files < 2 {
			t.Errorf("INTERNALS.md:%d: trace %q names %d files, want every file it touches", start+1, title, files)
		}
	}
}
