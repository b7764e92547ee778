package judge

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
)

// checkNested checks the shapes inside events that carry records, so that a
// missing null or an extra key in a ConsumedRecord, ByteString or header is
// caught (§3.1-§3.4).
func checkNested(ev *Event) string {
	switch ev.Kind {
	case "receive_completed", "group_receive_completed", "transactional_transform_completed":
		return checkRecords(ev.Fields["records"])
	case "share_receive_completed":
		var rs []map[string]json.RawMessage
		if json.Unmarshal(ev.Fields["records"], &rs) != nil {
			return "records is not an array of objects"
		}
		for i, r := range rs {
			if e := exactKeys(fmt.Sprintf("records[%d]", i), r, []string{"record", "delivery_count"}); e != "" {
				return e
			}
			if e := checkRecord(r["record"]); e != "" {
				return fmt.Sprintf("records[%d].record: %s", i, e)
			}
		}
	case "group_receive_set_completed":
		var ms []map[string]json.RawMessage
		if json.Unmarshal(ev.Fields["members"], &ms) != nil {
			return "members is not an array of objects"
		}
		for i, m := range ms {
			if e := exactKeys(fmt.Sprintf("members[%d]", i), m, []string{"consumer_id", "records", "committed", "group_epoch"}); e != "" {
				return e
			}
			if e := checkRecords(m["records"]); e != "" {
				return fmt.Sprintf("members[%d]: %s", i, e)
			}
		}
	case "group_assignments_observed":
		return checkGroupObserved(ev)
	case "operation_terminal":
		var off any
		_ = json.Unmarshal(ev.Fields["offset"], &off)
		if f, ok := off.(float64); ok && (f < 0 || f != float64(int64(f))) {
			return fmt.Sprintf("offset %v is not a non-negative integer", off)
		}
	}
	return ""
}

func checkRecords(raw json.RawMessage) string {
	var rs []json.RawMessage
	if json.Unmarshal(raw, &rs) != nil || rs == nil && string(raw) != "[]" {
		return "records is not an array"
	}
	for i, r := range rs {
		if e := checkRecord(r); e != "" {
			return fmt.Sprintf("records[%d]: %s", i, e)
		}
	}
	return ""
}

// RecordKeys are the keys of a ConsumedRecord (§3.4).
var RecordKeys = []string{"topic", "partition", "offset", "timestamp_millis", "key", "value", "headers"}

func checkRecord(raw json.RawMessage) string {
	var r map[string]json.RawMessage
	if json.Unmarshal(raw, &r) != nil || r == nil {
		return "not an object"
	}
	if e := exactKeys("record", r, RecordKeys); e != "" {
		return e
	}
	for _, k := range []string{"key", "value"} {
		if e := checkByteString(r[k]); e != "" {
			return k + ": " + e
		}
	}
	var hs []map[string]json.RawMessage
	if json.Unmarshal(r["headers"], &hs) != nil {
		return "headers is not an array of objects"
	}
	for i, h := range hs {
		if e := exactKeys(fmt.Sprintf("headers[%d]", i), h, []string{"name", "value"}); e != "" {
			return e
		}
		if e := checkByteString(h["value"]); e != "" {
			return fmt.Sprintf("headers[%d].value: %s", i, e)
		}
	}
	return ""
}

func checkByteString(raw json.RawMessage) string {
	if string(raw) == "null" {
		return ""
	}
	var b map[string]json.RawMessage
	if json.Unmarshal(raw, &b) != nil {
		return "not a ByteString or null"
	}
	if e := exactKeys("ByteString", b, []string{"encoding", "data"}); e != "" {
		return e
	}
	_, err := DecodeByteString(raw)
	if err != nil {
		return err.Error()
	}
	return ""
}

// DecodeByteString decodes a ByteString (§3.1); JSON null gives (nil, nil)
// and an empty ByteString gives a non-nil empty slice.
func DecodeByteString(raw json.RawMessage) ([]byte, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var b struct {
		Encoding string `json:"encoding"`
		Data     string `json:"data"`
	}
	if err := json.Unmarshal(raw, &b); err != nil {
		return nil, err
	}
	switch b.Encoding {
	case "utf8":
		return append([]byte{}, b.Data...), nil
	case "hex":
		out, err := hex.DecodeString(b.Data)
		if err != nil {
			return nil, fmt.Errorf("bad hex: %v", err)
		}
		if out == nil {
			out = []byte{}
		}
		return out, nil
	}
	return nil, fmt.Errorf("unknown encoding %q", b.Encoding)
}

// checkGroupObserved checks the exact keys of group_assignments_observed's
// transitions and assignments (§5.4).
func checkGroupObserved(ev *Event) string {
	var ts, as []map[string]json.RawMessage
	if json.Unmarshal(ev.Fields["transitions"], &ts) != nil || ts == nil && string(ev.Fields["transitions"]) != "[]" {
		return "transitions is not an array of objects"
	}
	for i, t := range ts {
		if e := exactKeys(fmt.Sprintf("transitions[%d]", i), t, []string{"consumer_id", "kind", "assignment_epoch", "partitions"}); e != "" {
			return e
		}
	}
	if json.Unmarshal(ev.Fields["assignments"], &as) != nil || len(as) == 0 {
		return "assignments is not a non-empty array of objects"
	}
	for i, a := range as {
		if e := exactKeys(fmt.Sprintf("assignments[%d]", i), a, []string{"consumer_id", "group_id", "member_id", "group_epoch", "assignment_epoch", "partitions"}); e != "" {
			return e
		}
		var ge map[string]json.RawMessage
		if json.Unmarshal(a["group_epoch"], &ge) != nil {
			return fmt.Sprintf("assignments[%d].group_epoch is not an object", i)
		}
		keys := []string{"kind", "generation_id"}
		if string(ge["kind"]) == `"consumer"` {
			keys = []string{"kind", "member_epoch"}
		}
		if e := exactKeys(fmt.Sprintf("assignments[%d].group_epoch", i), ge, keys); e != "" {
			return e
		}
	}
	return ""
}
