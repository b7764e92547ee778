package otlp

import (
	"encoding/binary"
	"math"
)

// Temporality is OTLP's AggregationTemporality (metrics.proto).
type Temporality int32

// The aggregation temporalities.
const (
	TemporalityDelta      Temporality = 1 // AGGREGATION_TEMPORALITY_DELTA
	TemporalityCumulative Temporality = 2 // AGGREGATION_TEMPORALITY_CUMULATIVE
)

// Attr is one string attribute (KeyValue with an AnyValue string_value).
type Attr struct {
	Key, Value string
}

// Point is one NumberDataPoint with a double value.
type Point struct {
	Attrs []Attr
	// Start and Time are start_time_unix_nano and time_unix_nano.
	Start, Time uint64
	Value       float64
}

// Metric is one Metric: a Gauge, or a Sum when Sum is true.
type Metric struct {
	Name, Description, Unit string
	// Sum makes the metric a Sum with Temporality and Monotonic; else a Gauge.
	Sum         bool
	Temporality Temporality
	Monotonic   bool
	Points      []Point
}

// MetricsData is the payload: resource attributes, the instrumentation
// scope and the metrics.
type MetricsData struct {
	Resource     []Attr
	ScopeName    string
	ScopeVersion string
	Metrics      []Metric
}

// Protobuf wire types.
const (
	wireVarint  = 0
	wireFixed64 = 1
	wireBytes   = 2
)

func appendTag(dst []byte, field int, wt int) []byte {
	return binary.AppendUvarint(dst, uint64(field)<<3|uint64(wt))
}

func appendBytesField(dst []byte, field int, b []byte) []byte {
	dst = appendTag(dst, field, wireBytes)
	dst = binary.AppendUvarint(dst, uint64(len(b)))
	return append(dst, b...)
}

func appendString(dst []byte, field int, s string) []byte {
	if s == "" { // proto3: default values are not written
		return dst
	}
	dst = appendTag(dst, field, wireBytes)
	dst = binary.AppendUvarint(dst, uint64(len(s)))
	return append(dst, s...)
}

func appendFixed64(dst []byte, field int, v uint64) []byte {
	dst = appendTag(dst, field, wireFixed64)
	return binary.LittleEndian.AppendUint64(dst, v)
}

func appendVarintField(dst []byte, field int, v uint64) []byte {
	dst = appendTag(dst, field, wireVarint)
	return binary.AppendUvarint(dst, v)
}

// Append appends md encoded as an OTLP MetricsData message to dst.
func (md *MetricsData) Append(dst []byte) []byte {
	// MetricsData.resource_metrics = 1 (ResourceMetrics)
	return appendBytesField(dst, 1, md.appendResourceMetrics(nil))
}

// appendResourceMetrics writes ResourceMetrics: resource = 1 (Resource),
// scope_metrics = 2 (ScopeMetrics).
func (md *MetricsData) appendResourceMetrics(dst []byte) []byte {
	var res []byte
	for _, a := range md.Resource {
		res = appendBytesField(res, 1, appendKeyValue(nil, a)) // Resource.attributes = 1
	}
	dst = appendBytesField(dst, 1, res)
	return appendBytesField(dst, 2, md.appendScopeMetrics(nil))
}

// appendScopeMetrics writes ScopeMetrics: scope = 1 (InstrumentationScope
// name = 1, version = 2), metrics = 2 (Metric).
func (md *MetricsData) appendScopeMetrics(dst []byte) []byte {
	var scope []byte
	scope = appendString(scope, 1, md.ScopeName)
	scope = appendString(scope, 2, md.ScopeVersion)
	dst = appendBytesField(dst, 1, scope)
	for i := range md.Metrics {
		dst = appendBytesField(dst, 2, md.Metrics[i].append(nil))
	}
	return dst
}

// append writes Metric: name = 1, description = 2, unit = 3, gauge = 5
// (Gauge.data_points = 1) or sum = 7 (Sum.data_points = 1,
// aggregation_temporality = 2, is_monotonic = 3).
func (m *Metric) append(dst []byte) []byte {
	dst = appendString(dst, 1, m.Name)
	dst = appendString(dst, 2, m.Description)
	dst = appendString(dst, 3, m.Unit)
	var data []byte
	for i := range m.Points {
		data = appendBytesField(data, 1, m.Points[i].append(nil))
	}
	if !m.Sum {
		return appendBytesField(dst, 5, data)
	}
	if m.Temporality != 0 {
		data = appendVarintField(data, 2, uint64(m.Temporality))
	}
	if m.Monotonic {
		data = appendVarintField(data, 3, 1)
	}
	return appendBytesField(dst, 7, data)
}

// append writes NumberDataPoint: start_time_unix_nano = 2 (fixed64),
// time_unix_nano = 3 (fixed64), as_double = 4 (double), attributes = 7
// (KeyValue).
func (p *Point) append(dst []byte) []byte {
	if p.Start != 0 {
		dst = appendFixed64(dst, 2, p.Start)
	}
	dst = appendFixed64(dst, 3, p.Time)
	dst = appendFixed64(dst, 4, math.Float64bits(p.Value)) // oneof: written even when 0
	for _, a := range p.Attrs {
		dst = appendBytesField(dst, 7, appendKeyValue(nil, a))
	}
	return dst
}

// appendKeyValue writes KeyValue: key = 1, value = 2 (AnyValue with
// string_value = 1).
func appendKeyValue(dst []byte, a Attr) []byte {
	dst = appendString(dst, 1, a.Key)
	var v []byte
	v = appendTag(v, 1, wireBytes) // oneof: written even when empty
	v = binary.AppendUvarint(v, uint64(len(a.Value)))
	v = append(v, a.Value...)
	return appendBytesField(dst, 2, v)
}
