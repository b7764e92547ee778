// Command scalechart reads `go test -bench` output of the bench module's
// scale suite (BenchmarkScaleProduce, BenchmarkScaleConsume; several runs)
// and draws the cost curves: one SVG per suite and metric, partitions on
// a log axis, one line per client through the medians, error bars from the
// smallest to the largest run. It prints a Markdown table of the medians
// [min–max] with gregor's ratio to franz-go's, for RESULTS.md.
//
// Usage: go run ./cmd/scalechart -out results/scale-curve/charts results/scale-curve/run*.txt
package main

import (
	"bufio"
	"flag"
	"fmt"
	"image/color"
	"log"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// metric is one charted metric: its unit in the benchmark output and the
// label of its axis.
type metric struct{ unit, label string }

var metrics = map[string][]metric{
	"Produce": {{"records/s", "records/s"}, {"cpu-ns/rec", "client CPU per record (ns)"}, {"heap-KiB/part", "heap after warm-up per partition (KiB)"}},
	"Consume": {{"records/s", "records/s"}, {"cpu-ns/rec", "client CPU per record (ns)"}},
}

// key is one curve point: suite, client and partition count.
type key struct {
	suite, client string
	parts         int
}

var line = regexp.MustCompile(`^BenchmarkScale(Produce|Consume)/client=([a-z-]+)/parts=(\d+)(-\d+)?\s`)

func main() {
	out := flag.String("out", "charts", "directory for the SVG files")
	flag.Parse()
	data := map[key]map[string][]float64{}
	for _, name := range flag.Args() {
		if err := read(name, data); err != nil {
			log.Fatal(err)
		}
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		log.Fatal(err)
	}
	for _, suite := range []string{"Produce", "Consume"} {
		for _, m := range metrics[suite] {
			if err := chart(*out, suite, m, data); err != nil {
				log.Fatal(err)
			}
		}
		table(suite, data)
	}
}

// read adds every scale benchmark line of file name to data.
func read(name string, data map[key]map[string][]float64) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		m := line.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		parts, _ := strconv.Atoi(m[3])
		k := key{m[1], m[2], parts}
		if data[k] == nil {
			data[k] = map[string][]float64{}
		}
		fs := strings.Fields(sc.Text())
		for i := 2; i+1 < len(fs); i++ {
			if v, err := strconv.ParseFloat(fs[i], 64); err == nil {
				data[k][fs[i+1]] = append(data[k][fs[i+1]], v)
			}
		}
	}
	return sc.Err()
}

// stats returns the median, smallest and largest of xs (len > 0).
func stats(xs []float64) (med, lo, hi float64) {
	s := slices.Sorted(slices.Values(xs))
	n := len(s)
	med = s[n/2]
	if n%2 == 0 {
		med = (s[n/2-1] + s[n/2]) / 2
	}
	return med, s[0], s[n-1]
}

// points is one client's curve: medians with their ranges.
type points struct {
	plotter.XYs
	plotter.YErrors
}

func curves(suite, unit string, data map[key]map[string][]float64) map[string]*points {
	cs := map[string]*points{}
	var ks []key
	for k := range data {
		if k.suite == suite && len(data[k][unit]) > 0 {
			ks = append(ks, k)
		}
	}
	slices.SortFunc(ks, func(a, b key) int { return a.parts - b.parts })
	for _, k := range ks {
		med, lo, hi := stats(data[k][unit])
		c := cs[k.client]
		if c == nil {
			c = &points{}
			cs[k.client] = c
		}
		c.XYs = append(c.XYs, plotter.XY{X: float64(k.parts), Y: med})
		c.YErrors = append(c.YErrors, struct{ Low, High float64 }{med - lo, hi - med})
	}
	return cs
}

var colors = map[string]color.Color{
	"gregor": color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff},
	"franz":  color.RGBA{R: 0xff, G: 0x7f, B: 0x0e, A: 0xff},
}

// chart draws one suite's metric over the partition count (log axis).
func chart(dir, suite string, m metric, data map[key]map[string][]float64) error {
	cs := curves(suite, m.unit, data)
	if len(cs) == 0 {
		return nil
	}
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s: %s, medians, bars min–max", strings.ToLower(suite), m.label)
	p.X.Label.Text = "partitions (log)"
	p.Y.Label.Text = m.label
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	p.Legend.Top = true
	names := slices.Sorted(func(yield func(string) bool) {
		for n := range cs {
			if !yield(n) {
				return
			}
		}
	})
	for _, name := range names {
		c := cs[name]
		l, s, err := plotter.NewLinePoints(c.XYs)
		if err != nil {
			return err
		}
		if col, ok := colors[name]; ok {
			l.Color, s.Color = col, col
		}
		eb, err := plotter.NewYErrorBars(c)
		if err != nil {
			return err
		}
		eb.Color = l.Color
		p.Add(l, s, eb)
		p.Legend.Add(name, l, s)
	}
	file := filepath.Join(dir, fmt.Sprintf("scale-%s-%s.svg", strings.ToLower(suite), strings.NewReplacer("/", "-per-").Replace(m.unit)))
	return p.Save(7*vg.Inch, 4*vg.Inch, file)
}

// table prints suite's medians [min–max] per partition count and client,
// and gregor's ratio to franz-go's.
func table(suite string, data map[key]map[string][]float64) {
	var parts []int
	for k := range data {
		if k.suite == suite && !slices.Contains(parts, k.parts) {
			parts = append(parts, k.parts)
		}
	}
	slices.Sort(parts)
	fmt.Printf("\n%s\n\n| partitions |", suite)
	for _, m := range metrics[suite] {
		fmt.Printf(" gregor %[1]s | franz-go %[1]s | ratio |", m.unit)
	}
	fmt.Printf(" n |\n|---|%s---|\n", strings.Repeat("---|---|---|", len(metrics[suite])))
	for _, n := range parts {
		fmt.Printf("| %d |", n)
		runs := 0
		for _, m := range metrics[suite] {
			g, f := data[key{suite, "gregor", n}][m.unit], data[key{suite, "franz", n}][m.unit]
			runs = max(runs, min(len(g), len(f)))
			fmt.Printf(" %s | %s | %s |", cell(g), cell(f), ratio(g, f))
		}
		fmt.Printf(" %d |\n", runs)
	}
}

func cell(xs []float64) string {
	if len(xs) == 0 {
		return "–"
	}
	med, lo, hi := stats(xs)
	return fmt.Sprintf("%s [%s–%s]", num(med), num(lo), num(hi))
}

func ratio(g, f []float64) string {
	if len(g) == 0 || len(f) == 0 {
		return "–"
	}
	mg, _, _ := stats(g)
	mf, _, _ := stats(f)
	return fmt.Sprintf("%.2f", mg/mf)
}

func num(v float64) string {
	switch {
	case v >= 1e6:
		return fmt.Sprintf("%.2fM", v/1e6)
	case v >= 1e4:
		return fmt.Sprintf("%.0fk", v/1e3)
	case v >= 100:
		return fmt.Sprintf("%.0f", v)
	default:
		return fmt.Sprintf("%.3g", v)
	}
}
