package invariant

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// edgeKind is a dependency between two transactions.
type edgeKind uint8

const (
	ww edgeKind = iota // the first's write precedes the second's in a partition
	wr                 // the second read the first's write
)

// edge is one dependency, with the record that shows it.
type edge struct {
	from, to int
	kind     edgeKind
	tp       TP
	off      int64 // the later write's offset (ww) or the read one (wr)
}

// txnGraph is the dependency graph over committed transactions.
type txnGraph struct {
	names []string
	id    map[string]int
	edges []edge
	out   [][]int // edge indices by source vertex
	seen  map[[3]int]bool
}

func (g *txnGraph) vertex(name string) int {
	if v, ok := g.id[name]; ok {
		return v
	}
	g.id[name] = len(g.names)
	g.names = append(g.names, name)
	g.out = append(g.out, nil)
	return g.id[name]
}

func (g *txnGraph) add(e edge) {
	k := [3]int{e.from, e.to, int(e.kind)}
	if e.from == e.to || g.seen[k] {
		return
	}
	g.seen[k] = true
	g.out[e.from] = append(g.out[e.from], len(g.edges))
	g.edges = append(g.edges, e)
}

// transactions builds the graph from read_committed reads and judges what
// it needs no cycle for: a committed transaction read an aborted one's write
// (RuleG1a) or its own (RuleInternal). Then G0 is a cycle of ww edges, G1c
// one with a wr edge.
func transactions(h *History, ix *index) []Violation {
	g, out := buildGraph(h, ix)
	out = append(out, g.cycles(func(e edge) bool { return e.kind == ww }, RuleG0)...)
	return append(out, g.cycles(func(edge) bool { return true }, RuleG1c)...)
}

// Dependencies is the size of the dependency graph Check searches for
// cycles in h: committed transactions with an edge, ww and wr edges.
func Dependencies(h *History) (txns, wwEdges, wrEdges int) {
	g, _ := buildGraph(h, newIndex(h))
	for _, e := range g.edges {
		if e.kind == ww {
			wwEdges++
		} else {
			wrEdges++
		}
	}
	return len(g.names), wwEdges, wrEdges
}

// buildGraph builds the graph, with the violations found on the way.
func buildGraph(h *History, ix *index) (*txnGraph, []Violation) {
	g := &txnGraph{id: map[string]int{}, seen: map[[3]int]bool{}}
	var out []Violation
	for _, r := range h.Reads {
		if r.Txn == "" || !r.Committed || ix.outcome(r.Txn) != Committed {
			continue
		}
		for _, rec := range r.Records {
			w := ix.writer(r.TP, rec)
			switch o := ix.outcome(w); {
			case w == "":
			case w == r.Txn:
				out = append(out, violation(RuleInternal, r.TP, "transaction %s read its own write %q at offset %d before it committed", r.Txn, rec.ID, rec.Offset))
			case o == Aborted:
				out = append(out, violation(RuleG1a, r.TP, "committed transaction %s read %q at offset %d written by aborted transaction %s", r.Txn, rec.ID, rec.Offset, w))
			case o == Committed:
				g.add(edge{from: g.vertex(w), to: g.vertex(r.Txn), kind: wr, tp: r.TP, off: rec.Offset})
			}
		}
	}
	writeEdges(h, ix, g)
	return g, out
}

// writeEdges adds a ww edge between neighbours in each partition's order
// of committed transactional writes, when the two transactions are
// ordered: sent by the same producer, or one ended before the other began.
// Kafka does not order the writes of concurrent transactions of different
// producers, so those pairs get no edge.
func writeEdges(h *History, ix *index, g *txnGraph) {
	by := map[TP][]*Send{}
	for i := range h.Sends {
		s := &h.Sends[i]
		if s.Acked && s.Offset >= 0 && s.Txn != "" && ix.outcome(s.Txn) == Committed {
			by[s.TP] = append(by[s.TP], s)
		}
	}
	for _, tp := range sortedTPs(by) {
		ss := by[tp]
		slices.SortFunc(ss, func(a, b *Send) int { return cmp.Compare(a.Offset, b.Offset) })
		for i := 1; i < len(ss); i++ {
			a, b := ss[i-1].Txn, ss[i].Txn
			if a != b && ix.ordered(a, b) {
				g.add(edge{from: g.vertex(a), to: g.vertex(b), kind: ww, tp: tp, off: ss[i].Offset})
			}
		}
	}
}

// ordered reports whether transactions a and b cannot have overlapped.
func (ix *index) ordered(a, b string) bool {
	if p := ix.txnProducer[a]; p != "" && p == ix.txnProducer[b] {
		return true
	}
	ta, tb := ix.txns[a], ix.txns[b]
	if ta == nil || tb == nil || ta.Begin.IsZero() || tb.Begin.IsZero() || ta.End.IsZero() || tb.End.IsZero() {
		return false
	}
	return ta.End.Before(tb.Begin) || tb.End.Before(ta.Begin)
}

func sortedTPs[V any](m map[TP]V) []TP {
	tps := make([]TP, 0, len(m))
	for tp := range m {
		tps = append(tps, tp)
	}
	slices.SortFunc(tps, func(a, b TP) int {
		return cmp.Or(cmp.Compare(a.Topic, b.Topic), cmp.Compare(a.Partition, b.Partition))
	})
	return tps
}

// cycles reports one cycle per strongly connected component of the graph
// restricted to the edges keep admits; for G1c (every edge admitted) only
// components with a wr edge inside, the others being G0.
func (g *txnGraph) cycles(keep func(edge) bool, rule Rule) []Violation {
	comp := g.scc(keep)
	var out []Violation
	members := map[int][]int{}
	for v, c := range comp {
		members[c] = append(members[c], v)
	}
	for c := 0; c < len(members); c++ {
		vs := members[c]
		if len(vs) < 2 {
			continue
		}
		start := -1
		for _, v := range vs {
			for _, ei := range g.out[v] {
				e := g.edges[ei]
				if keep(e) && comp[e.to] == c && (rule != RuleG1c || e.kind == wr) {
					start = ei
					break
				}
			}
			if start >= 0 {
				break
			}
		}
		if start < 0 {
			continue
		}
		path := g.path(g.edges[start].to, g.edges[start].from, c, comp, keep)
		cyc := append([]int{start}, path...)
		out = append(out, violation(rule, g.edges[start].tp, "cycle of %d transactions: %s", len(cyc), g.describe(cyc)))
	}
	return out
}

// scc returns each vertex's strongly connected component (Tarjan).
func (g *txnGraph) scc(keep func(edge) bool) []int {
	n := len(g.names)
	index, low, comp := make([]int, n), make([]int, n), make([]int, n)
	onStack := make([]bool, n)
	for i := range index {
		index[i], comp[i] = -1, -1
	}
	var stack []int
	next, ncomp := 0, 0
	var visit func(v int)
	visit = func(v int) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		onStack[v] = true
		for _, ei := range g.out[v] {
			e := g.edges[ei]
			if !keep(e) {
				continue
			}
			switch {
			case index[e.to] < 0:
				visit(e.to)
				low[v] = min(low[v], low[e.to])
			case onStack[e.to]:
				low[v] = min(low[v], index[e.to])
			}
		}
		if low[v] == index[v] {
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				comp[w] = ncomp
				if w == v {
					break
				}
			}
			ncomp++
		}
	}
	for v := range n {
		if index[v] < 0 {
			visit(v)
		}
	}
	return comp
}

// path is a shortest path of kept edges from a to b inside component c
// (breadth first), as edge indices.
func (g *txnGraph) path(a, b, c int, comp []int, keep func(edge) bool) []int {
	via := map[int]int{a: -1}
	queue := []int{a}
	for len(queue) > 0 && a != b {
		v := queue[0]
		queue = queue[1:]
		for _, ei := range g.out[v] {
			e := g.edges[ei]
			if _, ok := via[e.to]; ok || !keep(e) || comp[e.to] != c {
				continue
			}
			via[e.to] = ei
			if e.to == b {
				queue = nil
				break
			}
			queue = append(queue, e.to)
		}
	}
	var p []int
	for v := b; v != a; v = g.edges[via[v]].from {
		p = append(p, via[v])
	}
	slices.Reverse(p)
	return p
}

// describe prints a cycle as "T1 -ww t[0]@5-> T2 -wr t[1]@3-> T1".
func (g *txnGraph) describe(cyc []int) string {
	var b strings.Builder
	b.WriteString(g.names[g.edges[cyc[0]].from])
	for _, ei := range cyc {
		e := g.edges[ei]
		kind := "ww"
		if e.kind == wr {
			kind = "wr"
		}
		fmt.Fprintf(&b, " -%s %s@%d-> %s", kind, e.tp, e.off, g.names[e.to])
	}
	return b.String()
}
