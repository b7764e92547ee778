// Command soakreport turns a soak's evidence (testlab/evidence/soak-*.json,
// written by testlab/faultcheck's runSoak) into what testlab/RESULTS.md
// shows: a throughput-over-time chart (acknowledged records per second,
// the faults marked beneath it) and Markdown tables of the faults per kind
// and per API with their recovery times.
//
//	go run ./cmd/soakreport -chart results/soak-1h.svg evidence/soak-<time>.json
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"image/color"
	"io"
	"os"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/gregor-kafka/gregor/testlab/faultcheck"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// evidence is the part of faultcheck.Figures the report reads.
type evidence struct {
	Name           string    `json:"name"`
	Seed           uint64    `json:"seed"`
	Load           string    `json:"load"`
	LoadStart      time.Time `json:"load_start"`
	AckedPerSecond []int     `json:"acked_per_second"`
	Timeline       []fault   `json:"fault_timeline"`
}

// fault is one entry of the fault timeline.
type fault = faultcheck.FaultEvent

// apiNames are the API keys the chaos targets (chaos_test.go).
var apiNames = map[int16]string{0: "Produce", 1: "Fetch", 8: "OffsetCommit", 9: "OffsetFetch", 26: "EndTxn", 28: "TxnOffsetCommit", 68: "ConsumerGroupHeartbeat"}

func main() {
	chart := flag.String("chart", "", "write the throughput chart here (.svg or .png)")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: soakreport [-chart file.svg] evidence/soak-<time>.json")
		os.Exit(2)
	}
	b, err := os.ReadFile(flag.Arg(0))
	if err != nil {
		fail(err)
	}
	var ev evidence
	if err := json.Unmarshal(b, &ev); err != nil {
		fail(err)
	}
	if *chart != "" {
		if err := drawChart(ev, *chart); err != nil {
			fail(err)
		}
	}
	report(os.Stdout, ev)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "soakreport:", err)
	os.Exit(1)
}

// group is the faults of one row: their count, hold times and recoveries.
type group struct {
	n           int
	held        []time.Duration
	first, all  []int64
	noneFirstMs int
}

func (g *group) add(f fault) {
	g.n++
	g.held = append(g.held, f.Undone.Sub(f.At))
	if f.FirstAckMs < 0 {
		g.noneFirstMs++
		return
	}
	g.first = append(g.first, f.FirstAckMs)
	g.all = append(g.all, f.AllPartitionsMs)
}

func report(w io.Writer, ev evidence) {
	total := 0
	for _, n := range ev.AckedPerSecond {
		total += n
	}
	secs := max(len(ev.AckedPerSecond), 1)
	fmt.Fprintf(w, "%s, seed %d, load %s: %d records acknowledged over %d s (%.0f/s mean, min %d/s, max %d/s)\n\n",
		ev.Name, ev.Seed, ev.Load, total, len(ev.AckedPerSecond), float64(total)/float64(secs), slices.Min(append(ev.AckedPerSecond, 0)[:secs]), slices.Max(append(ev.AckedPerSecond, 0)))
	byKind, byAPI := map[string]*group{}, map[string]*group{}
	for _, f := range ev.Timeline {
		k := f.Kind
		if byKind[k] == nil {
			byKind[k] = &group{}
		}
		byKind[k].add(f)
		if strings.HasPrefix(f.Kind, "net:") {
			a := "any (not frame-targeted)"
			if f.API >= 0 {
				a = apiNames[f.API]
				if a == "" {
					a = fmt.Sprintf("API %d", f.API)
				}
			}
			if byAPI[a] == nil {
				byAPI[a] = &group{}
			}
			byAPI[a].add(f)
		}
	}
	table(w, "fault kind", byKind)
	fmt.Fprintln(w)
	table(w, "network faults by API", byAPI)
}

func table(w io.Writer, title string, gs map[string]*group) {
	fmt.Fprintf(w, "| %s | count | held median (max) | next ack, median (max) ms | every partition acked again, median (max) ms |\n|---|---|---|---|---|\n", title)
	keys := make([]string, 0, len(gs))
	for k := range gs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		g := gs[k]
		fmt.Fprintf(w, "| %s | %d | %s (%s) | %s | %s |\n", k, g.n, medianD(g.held), slices.Max(append(g.held, 0)).Round(100*time.Millisecond),
			medMax(g.first), medMax(g.all))
	}
}

func medianD(ds []time.Duration) string {
	if len(ds) == 0 {
		return "-"
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2].Round(100 * time.Millisecond).String()
}

func medMax(v []int64) string {
	if len(v) == 0 {
		return "-"
	}
	s := slices.Clone(v)
	slices.Sort(s)
	return fmt.Sprintf("%d (%d)", s[len(s)/2], s[len(s)-1])
}

// drawChart plots acknowledged records per second over the load, with each
// fault as a tick below the axis in its kind's colour.
func drawChart(ev evidence, path string) error {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s (%s, seed %d): input records acknowledged per second, faults below", ev.Name, ev.Load, ev.Seed)
	p.X.Label.Text = "minutes into the load"
	p.Y.Label.Text = "acknowledged records/s"
	// 10-second means: gregor's producers record completions in send
	// order, so single seconds are bursty.
	const bucket = 10
	var pts plotter.XYs
	peak := 0.0
	for i := 0; i < len(ev.AckedPerSecond); i += bucket {
		j := min(i+bucket, len(ev.AckedPerSecond))
		sum := 0
		for _, n := range ev.AckedPerSecond[i:j] {
			sum += n
		}
		y := float64(sum) / float64(j-i)
		pts = append(pts, plotter.XY{X: float64(i) / 60, Y: y})
		peak = max(peak, y)
	}
	line, err := plotter.NewLine(pts)
	if err != nil {
		return err
	}
	line.Color = color.RGBA{R: 40, G: 80, B: 160, A: 255}
	line.Width = vg.Points(1)
	p.Add(line)
	p.Legend.Add("acknowledged records/s (10 s mean)", line)
	// Each fault is a bar from its start to its undo, one row per kind
	// below the axis.
	colors := map[string]color.Color{
		"sigkill": color.RGBA{R: 200, A: 255}, "sigterm": color.RGBA{R: 230, G: 120, A: 255},
		"sigstop": color.RGBA{R: 150, B: 150, A: 255}, "controller_sigstop": color.RGBA{A: 255}, "network": color.RGBA{G: 140, A: 255},
	}
	rows := map[string]float64{"sigkill": 1, "sigterm": 2, "sigstop": 3, "controller_sigstop": 4, "network": 5}
	seen := map[string]bool{}
	for _, f := range ev.Timeline {
		k := f.Kind
		if strings.HasPrefix(k, "net:") {
			k = "network"
		}
		row, ok := rows[k]
		if !ok {
			row, k = 5, "network"
		}
		y := -peak * 0.05 * row
		x0, x1 := f.At.Sub(ev.LoadStart).Minutes(), f.Undone.Sub(ev.LoadStart).Minutes()
		l, err := plotter.NewLine(plotter.XYs{{X: x0, Y: y}, {X: max(x1, x0+0.05), Y: y}})
		if err != nil {
			return err
		}
		l.Color, l.Width = colors[k], vg.Points(4)
		p.Add(l)
		if !seen[k] {
			seen[k] = true
			p.Legend.Add(k, l)
		}
	}
	p.Legend.Top = true
	return p.Save(28*vg.Centimeter, 12*vg.Centimeter, path)
}
