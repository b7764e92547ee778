// Command charts reads `go test -bench` output of the bench module's
// end-to-end benchmarks (several interleaved runs of each suite) and draws
// one SVG bar chart per suite and metric: the cases along the x axis, the
// clients side by side, each bar the median of the runs and its error bar
// the smallest and largest run. It also writes summary.md, a table of the
// medians, for RESULTS.md.
//
// Suites (file names start with them): produce (BenchmarkProduce,
// BenchmarkPeerProduce), consume (BenchmarkConsume, BenchmarkPeerConsume),
// ack-latency (BenchmarkProduceLatencyAtRate), e2e-latency
// (BenchmarkEndToEndLatency), group (BenchmarkGroupConsume), txn
// (BenchmarkTransaction), share (BenchmarkShareConsume), delay
// (BenchmarkDelay: line charts over the one-way delay, log y), and the
// scale suite's cost curves, scale-produce and scale-consume
// (BenchmarkScaleProduce, BenchmarkScaleConsume: lines over the partition
// count on a log axis, scale.go). Latency
// suites draw p50, p99 and p99.9 per offered rate and the achieved rate;
// the others records/s, CPU, allocations, bytes and peak RSS per record
// (txn also transactions/s).
//
// Usage: go run ./cmd/charts -out results/charts results/produce.txt results/latency.txt ...
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
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// metric is one drawn metric: its unit in the benchmark output, the label of
// its axis and a scale applied to the raw value.
type metric struct {
	unit, label string
	scale       float64
}

// metrics drawn for throughput suites.
var metrics = []metric{
	{"records/s", "records/s (millions)", 1e-6},
	{"cpu-ns/rec", "client CPU per record (ns)", 1},
	{"allocs/rec", "heap allocations per record", 1},
	{"B/rec", "heap bytes per record", 1},
	{"peak-RSS-MiB", "peak RSS (MiB)", 1},
}

// latencyMetrics are drawn for the latency suites (ack-latency,
// e2e-latency): the percentiles from each record's due time on the
// open-loop schedule, the achieved rate and the client CPU per record.
var latencyMetrics = []metric{
	{"p50-us", "latency p50 (ms)", 1e-3},
	{"p99-us", "latency p99 (ms)", 1e-3},
	{"p99.9-us", "latency p99.9 (ms)", 1e-3},
	{"records/s", "achieved records/s (thousands)", 1e-3},
	{"cpu-ns/rec", "client CPU per record (ns)", 1},
}

// toolMetrics are drawn for the tools suite (the Java perf tools beside the
// Go clients): what each process spent.
var toolMetrics = []metric{
	{"records/s", "records/s (thousands)", 1e-3},
	{"cpu-s", "process CPU per run (s)", 1},
	{"cpu-ns/rec", "process CPU per record (ns)", 1},
	{"peak-RSS-MiB", "peak RSS (MiB)", 1},
}

// suites lists the suites in the order drawn and the benchmark (after
// "Benchmark") whose lines belong to each.
var suites = []struct {
	name string
	tops []string
}{
	{"produce", []string{"Produce", "PeerProduce"}},
	{"consume", []string{"Consume", "PeerConsume"}},
	{"ack-latency", []string{"ProduceLatencyAtRate"}},
	{"e2e-latency", []string{"EndToEndLatency"}},
	{"group", []string{"GroupConsume"}},
	{"txn", []string{"Transaction"}},
	{"share", []string{"ShareConsume"}},
	{"tools", []string{"PerfTools"}},
	{"delay", []string{"Delay"}},
	{"scale-produce", []string{"ScaleProduce"}}, // curves over partitions: scale.go
	{"scale-consume", []string{"ScaleConsume"}},
}

// suiteOf returns the suite of a top-level benchmark, or "".
func suiteOf(top string) string {
	for _, s := range suites {
		if slices.Contains(s.tops, top) {
			return s.name
		}
	}
	return ""
}

// metricsFor returns the metrics drawn for suite.
func metricsFor(suite string) []metric {
	switch suite {
	case "ack-latency", "e2e-latency":
		return latencyMetrics
	case "txn":
		return append([]metric{{"txn/s", "committed transactions/s", 1}}, metrics...)
	case "tools":
		return toolMetrics
	}
	return metrics
}

// clientOrder fixes the clients' order and colours.
var clientOrder = []string{"gregor", "gregor-norecycle", "franz", "sarama", "kafkago", "confluent", "java"}

var palette = []color.Color{
	color.RGBA{0x1b, 0x9e, 0x77, 0xff}, color.RGBA{0x66, 0xc2, 0xa5, 0xff}, color.RGBA{0xd9, 0x5f, 0x02, 0xff},
	color.RGBA{0x75, 0x70, 0xb3, 0xff}, color.RGBA{0xe7, 0x29, 0x8a, 0xff}, color.RGBA{0x66, 0xa6, 0x1e, 0xff},
	color.RGBA{0xa6, 0x76, 0x1d, 0xff},
}

// key names one bar: a suite (BenchmarkProduce and BenchmarkPeerProduce
// are one suite, "produce"; see suites), a case and a client.
type key struct{ suite, cas, client, unit string }

var format string

var nameRE = regexp.MustCompile(`^Benchmark(\w+)/(.*)-\d+$`)

func main() {
	out := flag.String("out", "results/charts", "directory for the chart files and summary.md")
	flag.StringVar(&format, "format", "svg", "chart file format: svg or png")
	flag.Parse()
	vals := map[key][]float64{}
	for _, f := range flag.Args() {
		if err := read(f, vals); err != nil {
			log.Fatal(err)
		}
	}
	if len(vals) == 0 {
		log.Fatal("charts: no benchmark lines read")
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		log.Fatal(err)
	}
	var summary strings.Builder
	for _, st := range suites {
		suite := st.name
		cases, clients := axes(vals, suite)
		if len(cases) == 0 {
			continue
		}
		if _, ok := scaleMetrics[suite]; ok {
			if err := drawScale(*out, &summary, vals, suite); err != nil {
				log.Fatal(err)
			}
			continue
		}
		fmt.Fprintf(&summary, "\n### %s (medians; [min, max] of the runs; n = runs)\n\n", suite)
		if suite == "delay" { // line charts over the delay, log y
			if err := drawDelay(*out, vals); err != nil {
				log.Fatal(err)
			}
			for _, unit := range delayTables {
				if has(vals, suite, unit) {
					table(&summary, vals, suite, cases, clients, unit)
				}
			}
			continue
		}
		for _, m := range metricsFor(suite) {
			if !has(vals, suite, m.unit) {
				continue
			}
			file := fmt.Sprintf("%s-%s.%s", suite, strings.NewReplacer("/", "-per-").Replace(m.unit), format)
			if err := draw(filepath.Join(*out, file), vals, suite, cases, clients, m.unit, m.label, m.scale); err != nil {
				log.Fatal(err)
			}
			table(&summary, vals, suite, cases, clients, m.unit)
		}
	}
	if err := os.WriteFile(filepath.Join(*out, "summary.md"), []byte(summary.String()), 0o644); err != nil {
		log.Fatal(err)
	}
}

// read adds every metric of every benchmark line of file to vals.
func read(file string, vals map[key][]float64) error {
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) < 4 {
			continue
		}
		m := nameRE.FindStringSubmatch(fs[0])
		if m == nil {
			continue
		}
		suite := suiteOf(m[1])
		if suite == "" {
			continue
		}
		client, cas := "", []string{}
		for _, part := range strings.Split(m[2], "/") {
			if c, ok := strings.CutPrefix(part, "client="); ok {
				client = c
			} else {
				cas = append(cas, part)
			}
		}
		for i := 2; i+1 < len(fs); i += 2 {
			v, err := strconv.ParseFloat(fs[i], 64)
			if err != nil {
				continue
			}
			k := key{suite, strings.Join(cas, "/"), client, fs[i+1]}
			vals[k] = append(vals[k], v)
		}
	}
	return sc.Err()
}

func axes(vals map[key][]float64, suite string) (cases, clients []string) {
	for k := range vals {
		if k.suite != suite {
			continue
		}
		if !slices.Contains(cases, k.cas) {
			cases = append(cases, k.cas)
		}
		if !slices.Contains(clients, k.client) {
			clients = append(clients, k.client)
		}
	}
	sort.Strings(cases)
	sort.Slice(clients, func(i, j int) bool { return rank(clients[i]) < rank(clients[j]) })
	return cases, clients
}

func rank(c string) int {
	if i := slices.Index(clientOrder, c); i >= 0 {
		return i
	}
	return len(clientOrder)
}

func has(vals map[key][]float64, suite, unit string) bool {
	for k := range vals {
		if k.suite == suite && k.unit == unit {
			return true
		}
	}
	return false
}

// stats returns the median, minimum and maximum of vs.
func stats(vs []float64) (med, lo, hi float64) {
	s := slices.Clone(vs)
	slices.Sort(s)
	n := len(s)
	med = s[n/2]
	if n%2 == 0 {
		med = (s[n/2-1] + s[n/2]) / 2
	}
	return med, s[0], s[n-1]
}

// bars is one client's bars: medians with min/max error bars.
type bars struct {
	med, lo, hi []float64
	offset      float64
}

func (b bars) Len() int                        { return len(b.med) }
func (b bars) XY(i int) (float64, float64)     { return float64(i) + b.offset, b.med[i] }
func (b bars) YError(i int) (float64, float64) { return b.med[i] - b.lo[i], b.hi[i] - b.med[i] }
func (b bars) Value(i int) float64             { return b.med[i] }

func draw(path string, vals map[key][]float64, suite string, cases, clients []string, unit_, label string, scale float64) error {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s: %s", suite, label)
	p.Y.Label.Text = label
	p.Legend.Top = true
	p.Legend.Left = true
	// Bars sit at x = case index + the client's offset (data units); the
	// bar width (points) is 0.8 of a case's width shared by the clients.
	width := vg.Length(max(640, 90*len(cases)+160))
	unit := float64(width-120) / float64(len(cases))
	w := vg.Length(0.8 * unit / float64(len(clients)))
	for ci, c := range clients {
		var b bars
		for _, cas := range cases {
			vs := vals[key{suite, cas, c, unit_}]
			if len(vs) == 0 {
				b.med, b.lo, b.hi = append(b.med, 0), append(b.lo, 0), append(b.hi, 0)
				continue
			}
			med, lo, hi := stats(vs)
			b.med, b.lo, b.hi = append(b.med, med*scale), append(b.lo, lo*scale), append(b.hi, hi*scale)
		}
		b.offset = 0.8 / float64(len(clients)) * (float64(ci) - float64(len(clients)-1)/2)
		bc, err := plotter.NewBarChart(b, w)
		if err != nil {
			return err
		}
		bc.Color = palette[rank(c)%len(palette)]
		bc.LineStyle.Width = 0
		bc.XMin = b.offset
		eb, err := plotter.NewYErrorBars(b)
		if err != nil {
			return err
		}
		p.Add(bc, eb)
		p.Legend.Add(c, bc)
	}
	p.NominalX(shortCases(cases)...)
	p.X.Tick.Label.Rotation = 0.6
	p.X.Tick.Label.XAlign = -0.9
	p.X.Tick.Label.YAlign = -0.5
	p.Y.Min = 0
	return p.Save(width, 360, path)
}

// Offered rates in case names: rate=10000 is drawn as 10k/s, other rates
// as n/s.
var (
	kiloRateRE = regexp.MustCompile(`rate=(\d+)000\b`)
	rateRE     = regexp.MustCompile(`rate=(\d+)`)
)

func shortCases(cases []string) []string {
	r := strings.NewReplacer("value=", "", "data=", "", "parts=", "p", "codec=", "", "linger=", "linger ", "/", " ")
	out := make([]string, len(cases))
	for i, c := range cases {
		s := r.Replace(c)
		s = kiloRateRE.ReplaceAllString(s, "${1}k/s")
		out[i] = rateRE.ReplaceAllString(s, "$1/s")
	}
	return out
}

func table(w *strings.Builder, vals map[key][]float64, suite string, cases, clients []string, unit string) {
	fmt.Fprintf(w, "| %s | %s |\n|---|%s\n", unit, strings.Join(clients, " | "), strings.Repeat("---|", len(clients)))
	for _, cas := range cases {
		fmt.Fprintf(w, "| %s |", cas)
		for _, c := range clients {
			vs := vals[key{suite, cas, c, unit}]
			if len(vs) == 0 {
				fmt.Fprint(w, " – |")
				continue
			}
			med, lo, hi := stats(vs)
			fmt.Fprintf(w, " %s [%s, %s] n=%d |", num(med), num(lo), num(hi), len(vs))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w)
}

func num(v float64) string {
	switch {
	case v >= 1e6:
		return fmt.Sprintf("%.2fM", v/1e6)
	case v >= 1e4:
		return fmt.Sprintf("%.0fk", v/1e3)
	case v >= 100:
		return fmt.Sprintf("%.0f", v)
	case v >= 1:
		return fmt.Sprintf("%.2f", v)
	}
	return fmt.Sprintf("%.4f", v)
}
