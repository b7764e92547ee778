package runner

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/gregor-kafka/gregor/testlab/judge"
	"github.com/twmb/franz-go/pkg/kgo"
)

// header is a record header; Value nil means a null header value.
type header struct {
	Name  string
	Value []byte
}

// content is a record's comparable content; nil Key/Value mean null.
type content struct {
	Key, Value []byte
	Headers    []header
}

// specContent decodes a RecordSpec's key, value and headers.
func specContent(spec map[string]any) (content, error) {
	var c content
	var err error
	if c.Key, err = anyByteString(spec["key"]); err != nil {
		return c, fmt.Errorf("key: %w", err)
	}
	if c.Value, err = anyByteString(spec["value"]); err != nil {
		return c, fmt.Errorf("value: %w", err)
	}
	hs, _ := spec["headers"].([]any)
	for _, h := range hs {
		hm, _ := h.(map[string]any)
		v, err := anyByteString(hm["value"])
		if err != nil {
			return c, fmt.Errorf("header: %w", err)
		}
		name, _ := hm["name"].(string)
		c.Headers = append(c.Headers, header{Name: name, Value: v})
	}
	return c, nil
}

func anyByteString(v any) ([]byte, error) {
	if v == nil {
		return nil, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return judge.DecodeByteString(b)
}

// recordContent is a ConsumedRecord's content as the adapter claimed it.
func recordContent(c judge.ConsumedRecord) content {
	out := content{Key: c.Key.Bytes(), Value: c.Value.Bytes()}
	for _, h := range c.Headers {
		out.Headers = append(out.Headers, header{Name: h.Name, Value: h.Value.Bytes()})
	}
	return out
}

// brokerContent is a broker record's content as franz-go decoded it (a null
// key/value/header value is nil, an empty one is a non-nil empty slice).
func brokerContent(r *kgo.Record) content {
	c := content{Key: r.Key, Value: r.Value}
	for _, h := range r.Headers {
		c.Headers = append(c.Headers, header{Name: h.Key, Value: h.Value})
	}
	return c
}

// diff describes how b differs from a ("" when equal), null and empty distinct.
func diff(a, b content) string {
	if d := bytesDiff("key", a.Key, b.Key); d != "" {
		return d
	}
	if d := bytesDiff("value", a.Value, b.Value); d != "" {
		return d
	}
	if len(a.Headers) != len(b.Headers) {
		return fmt.Sprintf("%d headers, broker has %d", len(a.Headers), len(b.Headers))
	}
	for i := range a.Headers {
		if a.Headers[i].Name != b.Headers[i].Name {
			return fmt.Sprintf("header %d name %q, broker has %q", i, a.Headers[i].Name, b.Headers[i].Name)
		}
		if d := bytesDiff(fmt.Sprintf("header %d value", i), a.Headers[i].Value, b.Headers[i].Value); d != "" {
			return d
		}
	}
	return ""
}

func bytesDiff(what string, claimed, broker []byte) string {
	show := func(b []byte) string {
		if b == nil {
			return "null"
		}
		return fmt.Sprintf("%q", b)
	}
	if (claimed == nil) != (broker == nil) || !bytes.Equal(claimed, broker) {
		return fmt.Sprintf("%s %s, broker has %s", what, show(claimed), show(broker))
	}
	return ""
}

// toKgo turns a RecordSpec into a record for the observer to produce.
func toKgo(spec map[string]any) (*kgo.Record, error) {
	c, err := specContent(spec)
	if err != nil {
		return nil, err
	}
	topic, _ := spec["topic"].(string)
	p, _ := spec["partition"].(float64)
	r := &kgo.Record{Topic: topic, Partition: int32(p), Key: c.Key, Value: c.Value}
	for _, h := range c.Headers {
		r.Headers = append(r.Headers, kgo.RecordHeader{Key: h.Name, Value: h.Value})
	}
	return r, nil
}
