// Command matrix prints the version × scenario verdict table of `make
// matrix` from the output of one `make run` per Kafka version.
//
//	matrix 3.7.2=run-3.7.2.log 4.4.0=run-4.4.0.log ...
//
// It reads the verdict lines testlab prints ("<scenario> <verdict>
// <seconds> <first failure>") and writes a Markdown table, one row per
// scenario and one column per version, then the totals and the reasons of
// every verdict other than passed. A version whose log has no verdict line
// (the run did not get that far) shows "-".
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strings"
)

// verdictRE matches one line of testlab's verdict table.
var verdictRE = regexp.MustCompile(`^(\S+)\s+(passed|failed|invalid|ineligible)\s+[0-9.]+\s*(.*)$`)

type verdict struct{ verdict, reason string }

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: matrix <version>=<make run log> ...")
		os.Exit(2)
	}
	var versions []string
	runs := map[string]map[string]verdict{}
	for _, arg := range os.Args[1:] {
		v, path, ok := strings.Cut(arg, "=")
		if !ok {
			fmt.Fprintf(os.Stderr, "matrix: %q: want <version>=<log>\n", arg)
			os.Exit(2)
		}
		f, err := os.Open(path)
		if err != nil {
			fmt.Fprintf(os.Stderr, "matrix: %v\n", err)
			os.Exit(1)
		}
		runs[v] = parse(f)
		f.Close()
		versions = append(versions, v)
	}
	write(os.Stdout, versions, runs)
}

// parse reads testlab's verdict lines.
func parse(r io.Reader) map[string]verdict {
	out := map[string]verdict{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if m := verdictRE.FindStringSubmatch(sc.Text()); m != nil {
			out[m[1]] = verdict{m[2], m[3]}
		}
	}
	return out
}

// write prints the table, the totals and the reasons.
func write(w io.Writer, versions []string, runs map[string]map[string]verdict) {
	ids := map[string]bool{}
	for _, r := range runs {
		for id := range r {
			ids[id] = true
		}
	}
	var scenarios []string
	for id := range ids {
		scenarios = append(scenarios, id)
	}
	sort.Strings(scenarios)
	fmt.Fprintf(w, "| scenario | %s |\n|---|%s\n", strings.Join(versions, " | "), strings.Repeat("---|", len(versions)))
	for _, id := range scenarios {
		cells := make([]string, len(versions))
		for i, v := range versions {
			cells[i] = "-"
			if vd, ok := runs[v][id]; ok {
				cells[i] = vd.verdict
			}
		}
		fmt.Fprintf(w, "| %s | %s |\n", id, strings.Join(cells, " | "))
	}
	totals := make([]string, len(versions))
	for i, v := range versions {
		n := map[string]int{}
		for _, vd := range runs[v] {
			n[vd.verdict]++
		}
		totals[i] = fmt.Sprintf("%d passed, %d failed, %d invalid, %d ineligible", n["passed"], n["failed"], n["invalid"], n["ineligible"])
	}
	fmt.Fprintf(w, "| **total** | %s |\n\n", strings.Join(totals, " | "))
	for _, v := range versions {
		for _, id := range scenarios {
			if vd, ok := runs[v][id]; ok && vd.verdict != "passed" {
				fmt.Fprintf(w, "- %s %s %s: %s\n", v, id, vd.verdict, vd.reason)
			}
		}
	}
}
