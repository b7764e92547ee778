package main

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/wire"
)

// jsonIn is one record of produce's JSON input. Bytes that are not UTF-8
// travel as key_base64 / value_base64 (what consume's JSON output writes).
type jsonIn struct {
	Key         *string         `json:"key"`
	KeyBase64   *string         `json:"key_base64"`
	Value       *string         `json:"value"`
	ValueBase64 *string         `json:"value_base64"`
	Headers     json.RawMessage `json:"headers"`
	Partition   *int32          `json:"partition"`
	Timestamp   *int64          `json:"timestamp"`
}

type jsonHeader struct {
	Key         string  `json:"key"`
	Value       *string `json:"value"`
	ValueBase64 *string `json:"value_base64"`
}

func pickBytes(s, b64 *string, field string) ([]byte, error) {
	switch {
	case s != nil && b64 != nil:
		return nil, fmt.Errorf("both %s and %s_base64", field, field)
	case b64 != nil:
		v, err := base64.StdEncoding.DecodeString(*b64)
		if err != nil {
			return nil, fmt.Errorf("%s_base64: %v", field, err)
		}
		return v, nil
	case s != nil:
		return []byte(*s), nil
	}
	return nil, nil
}

// decodeJSONRecord parses one line of JSON input.
func decodeJSONRecord(line []byte) (key, value []byte, headers []wire.Header, partition *int32, ts *int64, err error) {
	var in jsonIn
	if err = json.Unmarshal(line, &in); err != nil {
		return nil, nil, nil, nil, nil, fmt.Errorf("not a JSON record: %v", err)
	}
	if key, err = pickBytes(in.Key, in.KeyBase64, "key"); err != nil {
		return
	}
	if value, err = pickBytes(in.Value, in.ValueBase64, "value"); err != nil {
		return
	}
	if len(in.Headers) > 0 && string(in.Headers) != "null" {
		if in.Headers[0] == '{' {
			var m map[string]*string
			if err = json.Unmarshal(in.Headers, &m); err != nil {
				return nil, nil, nil, nil, nil, fmt.Errorf("headers: %v", err)
			}
			for _, k := range sortedKeys(m) {
				h := wire.Header{Key: k}
				if m[k] != nil {
					h.Value = []byte(*m[k])
				}
				headers = append(headers, h)
			}
		} else {
			var hs []jsonHeader
			if err = json.Unmarshal(in.Headers, &hs); err != nil {
				return nil, nil, nil, nil, nil, fmt.Errorf("headers: want [{\"key\":..,\"value\":..}] or {\"key\":\"value\"}: %v", err)
			}
			for _, h := range hs {
				v, herr := pickBytes(h.Value, h.ValueBase64, "header value")
				if herr != nil {
					return nil, nil, nil, nil, nil, herr
				}
				headers = append(headers, wire.Header{Key: h.Key, Value: v})
			}
		}
	}
	return key, value, headers, in.Partition, in.Timestamp, nil
}

// appendJSONRecord appends r as one JSON object (no newline).
func appendJSONRecord(dst []byte, r *consumer.Record) []byte {
	dst = append(dst, `{"topic":`...)
	dst = appendJSONString(dst, r.Topic)
	dst = append(dst, `,"partition":`...)
	dst = strconv.AppendInt(dst, int64(r.Partition), 10)
	dst = append(dst, `,"offset":`...)
	dst = strconv.AppendInt(dst, r.Offset, 10)
	dst = append(dst, `,"timestamp":`...)
	dst = strconv.AppendInt(dst, wire.MillisOf(r.Timestamp), 10)
	dst = appendJSONBytes(dst, "key", r.Key)
	dst = appendJSONBytes(dst, "value", r.Value)
	if len(r.Headers) > 0 {
		dst = append(dst, `,"headers":[`...)
		for i, h := range r.Headers {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, `{"key":`...)
			dst = appendJSONString(dst, h.Key)
			dst = appendJSONBytes(dst, "value", h.Value)
			dst = append(dst, '}')
		}
		dst = append(dst, ']')
	}
	return append(dst, '}')
}

// appendJSONBytes appends ,"name":"..." (or name_base64 for bytes that are
// not UTF-8, or null for nil).
func appendJSONBytes(dst []byte, name string, b []byte) []byte {
	dst = append(dst, ',', '"')
	dst = append(dst, name...)
	switch {
	case b == nil:
		return append(dst, `":null`...)
	case utf8.Valid(b):
		dst = append(dst, '"', ':')
		return appendJSONString(dst, string(b))
	}
	dst = append(dst, `_base64":"`...)
	dst = base64.StdEncoding.AppendEncode(dst, b)
	return append(dst, '"')
}

func appendJSONString(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= 0x80 {
			b, _ := json.Marshal(s)
			return append(dst, b...)
		}
	}
	dst = append(dst, '"')
	dst = append(dst, s...)
	return append(dst, '"')
}
