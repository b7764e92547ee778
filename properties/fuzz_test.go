package properties

import (
	"reflect"
	"sort"
	"strings"
	"testing"
)

// escape writes s so that Parse reads it back unchanged (as
// java.util.Properties.store does).
func escape(s string, key bool) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		r := s[i]
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\f':
			b.WriteString(`\f`)
		case r == '=' || r == ':' || r == '#' || r == '!':
			b.WriteByte('\\')
			b.WriteByte(r)
		case r == ' ' && (key || i == 0):
			b.WriteString(`\ `)
		default:
			b.WriteByte(r)
		}
	}
	return b.String()
}

// FuzzParse: Parse never panics, and what it read, written back escaped,
// reads the same.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"a=b\n", "# c\n! d\nkey : value\n", "k\\\n  continued=v\\\n  al\n", "u=\\u0041\\u00e9\n",
		"sp\\ ace=x\n", "novalue\n", "trailing=\\", "x=\\u12", "\xff=\xfe\n", "a=b\r\nc=d\r\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		p, err := Parse(strings.NewReader(in))
		if err != nil {
			return
		}
		keys := make([]string, 0, len(p))
		for k := range p {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var out strings.Builder
		for _, k := range keys {
			out.WriteString(escape(k, true) + "=" + escape(p[k], false) + "\n")
		}
		back, err := Parse(strings.NewReader(out.String()))
		if err != nil {
			t.Fatalf("re-parse of %q: %v", out.String(), err)
		}
		if !reflect.DeepEqual(back, p) {
			t.Fatalf("round trip:\n in  %q\n out %q\n got %q\n want %q", in, out.String(), back, p)
		}
	})
}
