package wire

import "time"

// TimeOfMillis converts a Kafka timestamp in Unix milliseconds to a
// time.Time; a negative one (NO_TIMESTAMP, -1: none) is the zero time.
func TimeOfMillis(ms int64) time.Time {
	if ms < 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms)
}

// MillisOf converts t to a Kafka timestamp in Unix milliseconds, -1
// (NO_TIMESTAMP) for the zero time: the inverse of TimeOfMillis.
func MillisOf(t time.Time) int64 {
	if t.IsZero() {
		return -1
	}
	return t.UnixMilli()
}
