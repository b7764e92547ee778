package client

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gregor-kafka/gregor/internal/otlp"
)

// The KIP-714 metric name prefixes of the two client roles.
const (
	producerMetricPrefix = "org.apache.kafka.producer."
	consumerMetricPrefix = "org.apache.kafka.consumer."
)

// metricSelector is a subscription's RequestedMetrics: name prefixes, or
// every metric ("*" or an empty prefix, which every name starts with).
type metricSelector struct {
	all      bool
	prefixes []string
}

func newMetricSelector(requested []string) metricSelector {
	var s metricSelector
	for _, p := range requested {
		if p == "" || p == "*" {
			s.all = true
		}
	}
	s.prefixes = requested
	return s
}

func (s metricSelector) match(name string) bool {
	if s.all {
		return true
	}
	for _, p := range s.prefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// metricState is what the loop remembers of the previous push: deltas,
// rates and per-interval averages are computed against it.
type metricState struct {
	start, last time.Time
	conns       uint64
	reqs        map[BrokerLane]RequestLatency
}

func newMetricState(now time.Time) metricState {
	return metricState{start: now, last: now}
}

// roleLanes are the lanes whose requests a role's node.request.latency
// covers.
var roleLanes = map[string][]Lane{
	producerMetricPrefix: {LaneProduce},
	consumerMetricPrefix: {LaneFetch, LaneGroup},
}

// collect turns snap into the subscribed KIP-714 metrics and makes snap
// the base of the next interval. The metrics gregor sends are listed in
// INTERNALS.md ("Client telemetry").
func (st *metricState) collect(snap MetricsSnapshot, now time.Time, delta bool, sel metricSelector) *otlp.MetricsData {
	md := &otlp.MetricsData{ScopeName: "gregor", ScopeVersion: softwareVersion}
	var roles []string
	if snap.Producer.Accepting || snap.Producer.Healthy || snap.Lanes[LaneProduce].Opened > 0 {
		roles = append(roles, producerMetricPrefix)
	}
	if snap.Lanes[LaneFetch].Opened > 0 {
		roles = append(roles, consumerMetricPrefix)
	}
	tNow, tLast, tStart := unixNano(now), unixNano(st.last), unixNano(st.start)
	secs := now.Sub(st.last).Seconds()
	add := func(m otlp.Metric) {
		if sel.match(m.Name) && len(m.Points) > 0 {
			md.Metrics = append(md.Metrics, m)
		}
	}
	for _, p := range roles {
		total := otlp.Metric{Name: p + "connection.creation.total", Unit: "1", Sum: true, Monotonic: true,
			Temporality: otlp.TemporalityCumulative, Points: []otlp.Point{{Start: tStart, Time: tNow, Value: float64(snap.Conns.Opened)}}}
		if delta {
			total.Temporality = otlp.TemporalityDelta
			total.Points[0] = otlp.Point{Start: tLast, Time: tNow, Value: float64(snap.Conns.Opened - st.conns)}
		}
		add(total)
		if secs > 0 {
			add(otlp.Metric{Name: p + "connection.creation.rate", Unit: "1/s",
				Points: []otlp.Point{{Time: tNow, Value: float64(snap.Conns.Opened-st.conns) / secs}}})
		}
		avg, mx := st.nodeLatency(snap, roleLanes[p], tNow)
		add(otlp.Metric{Name: p + "node.request.latency.avg", Unit: "ms", Points: avg})
		add(otlp.Metric{Name: p + "node.request.latency.max", Unit: "ms", Points: mx})
		if p == consumerMetricPrefix {
			d := st.intervalLatency(snap, LaneFetch, -1)
			if d.Count > 0 {
				add(otlp.Metric{Name: p + "fetch.manager.fetch.latency.avg", Unit: "ms", Points: []otlp.Point{{Time: tNow, Value: latencyAvgMs(d)}}})
				add(otlp.Metric{Name: p + "fetch.manager.fetch.latency.max", Unit: "ms", Points: []otlp.Point{{Time: tNow, Value: latencyMaxMs(d)}}})
			}
		}
	}
	st.last, st.conns, st.reqs = now, snap.Conns.Opened, snap.Requests
	return md
}

// nodeLatency returns one avg and one max point per broker that answered
// requests of lanes in the interval, with a node_id attribute.
func (st *metricState) nodeLatency(snap MetricsSnapshot, lanes []Lane, tNow uint64) (avg, mx []otlp.Point) {
	brokers := map[int32]bool{}
	for k := range snap.Requests {
		if k.Broker >= 0 {
			brokers[k.Broker] = true
		}
	}
	ids := make([]int32, 0, len(brokers))
	for b := range brokers {
		ids = append(ids, b)
	}
	slices.Sort(ids)
	for _, b := range ids {
		var d RequestLatency
		for _, l := range lanes {
			addLatency(&d, st.intervalLatencyOf(snap, BrokerLane{b, l}))
		}
		if d.Count == 0 {
			continue
		}
		attrs := []otlp.Attr{{Key: "node_id", Value: strconv.Itoa(int(b))}}
		avg = append(avg, otlp.Point{Attrs: attrs, Time: tNow, Value: latencyAvgMs(d)})
		mx = append(mx, otlp.Point{Attrs: attrs, Time: tNow, Value: latencyMaxMs(d)})
	}
	return avg, mx
}

// intervalLatency sums lane's histograms over every broker (broker -1) or
// one broker, minus their values at the previous push.
func (st *metricState) intervalLatency(snap MetricsSnapshot, lane Lane, broker int32) RequestLatency {
	var d RequestLatency
	for k := range snap.Requests {
		if k.Lane == lane && (broker < 0 || k.Broker == broker) {
			addLatency(&d, st.intervalLatencyOf(snap, k))
		}
	}
	return d
}

// intervalLatencyOf is one histogram's growth since the previous push.
func (st *metricState) intervalLatencyOf(snap MetricsSnapshot, k BrokerLane) RequestLatency {
	cur := snap.Requests[k]
	prev := st.reqs[k]
	var d RequestLatency
	for i := range cur.Counts {
		d.Counts[i] = cur.Counts[i] - prev.Counts[i]
	}
	d.Count, d.SumNs = cur.Count-prev.Count, cur.SumNs-prev.SumNs
	return d
}

func addLatency(dst *RequestLatency, d RequestLatency) {
	for i := range d.Counts {
		dst.Counts[i] += d.Counts[i]
	}
	dst.Count += d.Count
	dst.SumNs += d.SumNs
}

func latencyAvgMs(d RequestLatency) float64 {
	return float64(d.SumNs) / float64(d.Count) / 1e6
}

// latencyMaxMs is the upper bound of the highest histogram bucket that
// counted a response in the interval (the last bound for slower ones):
// gregor keeps histograms, not per-interval maxima.
func latencyMaxMs(d RequestLatency) float64 {
	for i := len(d.Counts) - 1; i >= 0; i-- {
		if d.Counts[i] > 0 {
			return float64(LatencyBuckets[min(i, len(LatencyBuckets)-1)]) / 1e6
		}
	}
	return 0
}

func unixNano(t time.Time) uint64 { return uint64(t.UnixNano()) }
