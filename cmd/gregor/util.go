package main

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"
)

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// parsePartitions parses "0,2,5-7".
func parsePartitions(s string) ([]int32, error) {
	var out []int32
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.ParseInt(lo, 10, 32)
		if err != nil || a < 0 {
			return nil, usagef("partition %q is not a number >= 0", part)
		}
		b := a
		if isRange {
			if b, err = strconv.ParseInt(hi, 10, 32); err != nil || b < a {
				return nil, usagef("partition range %q is not LOW-HIGH", part)
			}
		}
		for p := a; p <= b; p++ {
			out = append(out, int32(p))
		}
	}
	if len(out) == 0 {
		return nil, usagef("no partitions in %q", s)
	}
	return out, nil
}

// parseTime parses Unix milliseconds or an RFC 3339 time into Unix ms.
func parseTime(s string) (int64, error) {
	if ms, err := strconv.ParseInt(s, 10, 64); err == nil {
		return ms, nil
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return 0, fmt.Errorf("%q is neither Unix milliseconds nor an RFC 3339 time (2006-01-02T15:04:05Z)", s)
	}
	return t.UnixMilli(), nil
}

// parseKV parses "key=value".
func parseKV(flagName, s string) (string, string, error) {
	k, v, ok := strings.Cut(s, "=")
	if !ok || k == "" {
		return "", "", usagef("%s %q is not key=value", flagName, s)
	}
	return k, v, nil
}

// rate formats n per d as "12,345 records/s".
func rate(n int64, d time.Duration) string {
	if d <= 0 {
		return "- records/s"
	}
	return group(int64(float64(n)/d.Seconds())) + " records/s"
}

// group formats n with thousands separators.
func group(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
