package main

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	vgdraw "gonum.org/v1/plot/vg/draw"
)

// delayMetrics are drawn for the delay suite (BenchmarkDelay), one chart
// per op and metric: the one-way delay along x, a line per client and
// partition count, log y (the values span decades).
var delayMetrics = []metric{
	{"records/s", "records/s", 1},
	{"cpu-ns/rec", "client CPU per record (ns)", 1},
}

// delayTables are the delay suite's summary tables.
var delayTables = []string{"records/s", "bound-rec/s", "of-bound", "of-min-bound", "cpu-ns/rec", "rtt-ms", "recs/req", "peak-inflight"}

// delayCase is a delay suite case name split into its parts.
type delayCase struct{ delay, op, parts string }

func splitDelayCase(cas string) (delayCase, bool) {
	var d delayCase
	for _, f := range strings.Split(cas, "/") {
		k, v, _ := strings.Cut(f, "=")
		switch k {
		case "delay":
			d.delay = v
		case "op":
			d.op = v
		case "parts":
			d.parts = v
		}
	}
	return d, d.delay != "" && d.op != "" && d.parts != ""
}

// drawDelay draws the delay suite's charts into out: records/s (with
// gregor's bound dashed) and CPU per record, for each op.
func drawDelay(out string, vals map[key][]float64) error {
	cases, clients := axes(vals, "delay")
	var delays, ops, parts []string
	for _, c := range cases {
		d, ok := splitDelayCase(c)
		if !ok {
			continue
		}
		for _, p := range []struct {
			s   *[]string
			val string
		}{{&delays, d.delay}, {&ops, d.op}, {&parts, d.parts}} {
			if !slices.Contains(*p.s, p.val) {
				*p.s = append(*p.s, p.val)
			}
		}
	}
	slices.SortFunc(delays, func(a, b string) int { return durMS(a) - durMS(b) })
	slices.SortFunc(parts, func(a, b string) int { return atoi(a) - atoi(b) })
	for _, op := range ops {
		for _, m := range delayMetrics {
			p := plot.New()
			p.Title.Text = fmt.Sprintf("delay suite, %s: %s (medians, bars min–max)", op, m.label)
			p.X.Label.Text = "one-way delay"
			p.Y.Label.Text = m.label + " (log scale)"
			p.Y.Scale = plot.LogScale{}
			p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
			p.Legend.Top = true
			series := 0
			for _, c := range clients {
				units := []string{m.unit}
				if c == "gregor" && m.unit == "records/s" {
					units = append(units, "bound-rec/s")
				}
				for _, unit := range units {
					for pi, pa := range parts {
						var xys plotter.XYs
						var errs plotter.YErrors
						for di, d := range delays {
							vs := vals[key{"delay", fmt.Sprintf("delay=%s/op=%s/parts=%s", d, op, pa), c, unit}]
							if len(vs) == 0 {
								continue
							}
							med, lo, hi := stats(vs)
							xys = append(xys, plotter.XY{X: float64(di), Y: med * m.scale})
							errs = append(errs, struct{ Low, High float64 }{(med - lo) * m.scale, (hi - med) * m.scale})
						}
						if len(xys) == 0 {
							continue
						}
						l, pts, err := plotter.NewLinePoints(xys)
						if err != nil {
							return err
						}
						col := palette[rank(c)%len(palette)]
						l.Color, pts.Color = col, col
						l.Width = vg.Points(1 + float64(pi)*0.8)
						pts.Shape = []vgdraw.GlyphDrawer{vgdraw.CircleGlyph{}, vgdraw.BoxGlyph{}, vgdraw.TriangleGlyph{}}[pi%3]
						name := fmt.Sprintf("%s p%s", c, pa)
						if unit == "bound-rec/s" {
							l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
							name = fmt.Sprintf("gregor's bound p%s", pa)
							p.Add(l)
						} else {
							eb := &plotter.YErrorBars{XYs: xys, YErrors: errs, CapWidth: vg.Points(5)}
							eb.LineStyle.Color, eb.LineStyle.Width = col, vg.Points(1)
							p.Add(l, pts, eb)
						}
						p.Legend.Add(name, l, pts)
						series++
					}
				}
			}
			if series == 0 {
				continue
			}
			labels := make([]string, len(delays))
			for i, d := range delays {
				labels[i] = d
				if durMS(d) == 0 {
					labels[i] = "0 (loopback)"
				}
			}
			p.NominalX(labels...)
			file := fmt.Sprintf("delay-%s-%s.%s", op, strings.NewReplacer("/", "-per-").Replace(m.unit), format)
			if err := p.Save(720, 480, filepath.Join(out, file)); err != nil {
				return err
			}
		}
	}
	return nil
}

// durMS is a Go duration string's milliseconds ("40ms", "1ms", "0s").
func durMS(s string) int {
	d, _ := time.ParseDuration(s)
	return int(d.Milliseconds())
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
