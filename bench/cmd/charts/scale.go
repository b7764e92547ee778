package main

import (
	"fmt"
	"image/color"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// The scale suite's cost curves (BenchmarkScaleProduce, BenchmarkScaleConsume:
// suites scale-produce and scale-consume, cases parts=N) are drawn as lines
// over the partition count on a log axis instead of bars: one line per
// client through the medians, error bars from the smallest to the largest
// run; summary.md gets their medians [min–max] with gregor's ratio to
// franz-go's.

// scaleMetrics are the metrics of each scale suite's curves.
var scaleMetrics = map[string][]metric{
	"scale-produce": {{"records/s", "records/s", 1}, {"cpu-ns/rec", "client CPU per record (ns)", 1}, {"heap-KiB/part", "heap after warm-up per partition (KiB)", 1}},
	"scale-consume": {{"records/s", "records/s", 1}, {"cpu-ns/rec", "client CPU per record (ns)", 1}},
}

// curve is one client's points: medians with their ranges.
type curve struct {
	plotter.XYs
	plotter.YErrors
}

// scaleCurves returns each client's curve of suite's unit, by partition count.
func scaleCurves(vals map[key][]float64, suite, unit string) map[string]*curve {
	var ks []key
	for k, vs := range vals {
		if k.suite == suite && k.unit == unit && len(vs) > 0 {
			ks = append(ks, k)
		}
	}
	slices.SortFunc(ks, func(a, b key) int { return partsOf(a.cas) - partsOf(b.cas) })
	cs := map[string]*curve{}
	for _, k := range ks {
		med, lo, hi := stats(vals[k])
		c := cs[k.client]
		if c == nil {
			c = &curve{}
			cs[k.client] = c
		}
		c.XYs = append(c.XYs, plotter.XY{X: float64(partsOf(k.cas)), Y: med})
		c.YErrors = append(c.YErrors, struct{ Low, High float64 }{med - lo, hi - med})
	}
	return cs
}

// partsOf returns N of a case "parts=N" (0 otherwise).
func partsOf(cas string) int {
	n, _ := strconv.Atoi(strings.TrimPrefix(cas, "parts="))
	return n
}

var scaleColors = []color.Color{
	color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff},
	color.RGBA{R: 0xff, G: 0x7f, B: 0x0e, A: 0xff},
	color.RGBA{R: 0x2c, G: 0xa0, B: 0x2c, A: 0xff},
	color.RGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0xff},
}

// drawScale draws suite's curves into dir and their table into w.
func drawScale(dir string, w *strings.Builder, vals map[key][]float64, suite string) error {
	_, clients := axes(vals, suite)
	fmt.Fprintf(w, "\n### %s (medians [min–max] of the runs; ratio gregor / franz)\n", suite)
	for _, m := range scaleMetrics[suite] {
		cs := scaleCurves(vals, suite, m.unit)
		if len(cs) == 0 {
			continue
		}
		p := plot.New()
		p.Title.Text = fmt.Sprintf("%s: %s", suite, m.label)
		p.X.Label.Text = "partitions (log scale)"
		p.Y.Label.Text = m.label
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = plot.LogTicks{Prec: -1}
		p.Legend.Top = true
		for i, client := range clients {
			c := cs[client]
			if c == nil {
				continue
			}
			l, s, err := plotter.NewLinePoints(c.XYs)
			if err != nil {
				return err
			}
			l.Color, s.Color = scaleColors[i%len(scaleColors)], scaleColors[i%len(scaleColors)]
			eb, err := plotter.NewYErrorBars(c)
			if err != nil {
				return err
			}
			eb.Color = l.Color
			p.Add(l, s, eb)
			p.Legend.Add(client, l, s)
		}
		file := fmt.Sprintf("%s-%s.%s", suite, strings.NewReplacer("/", "-per-").Replace(m.unit), format)
		if err := p.Save(7*vg.Inch, 4*vg.Inch, filepath.Join(dir, file)); err != nil {
			return err
		}
		scaleTable(w, vals, suite, m.unit, clients)
	}
	return nil
}

// scaleTable writes one metric's medians [min–max] per partition count.
func scaleTable(w *strings.Builder, vals map[key][]float64, suite, unit string, clients []string) {
	cases, _ := axes(vals, suite)
	slices.SortFunc(cases, func(a, b string) int { return partsOf(a) - partsOf(b) })
	fmt.Fprintf(w, "\n%s\n\n| partitions | %s | gregor / franz |\n|---|%s---|\n", unit, strings.Join(clients, " | "), strings.Repeat("---|", len(clients)))
	for _, cas := range cases {
		fmt.Fprintf(w, "| %d |", partsOf(cas))
		for _, client := range clients {
			if vs := vals[key{suite, cas, client, unit}]; len(vs) > 0 {
				med, lo, hi := stats(vs)
				fmt.Fprintf(w, " %s [%s–%s] (n=%d) |", num(med), num(lo), num(hi), len(vs))
			} else {
				fmt.Fprint(w, " – |")
			}
		}
		g, f := vals[key{suite, cas, "gregor", unit}], vals[key{suite, cas, "franz", unit}]
		if len(g) > 0 && len(f) > 0 {
			mg, _, _ := stats(g)
			mf, _, _ := stats(f)
			fmt.Fprintf(w, " %.2f |\n", mg/mf)
		} else {
			fmt.Fprint(w, " – |\n")
		}
	}
}
