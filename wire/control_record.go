package wire

import (
	"encoding/binary"
	"fmt"
)

// More control record types, written by KRaft to its metadata log (not seen
// in user topics); listed so String can name them.
const (
	ControlLeaderChange   ControlRecordType = 2
	ControlSnapshotHeader ControlRecordType = 3
	ControlSnapshotFooter ControlRecordType = 4
	ControlKRaftVersion   ControlRecordType = 5
	ControlKRaftVoters    ControlRecordType = 6
)

// String returns Kafka's name for the type (ABORT, COMMIT, ...), or
// "UNKNOWN(n)".
func (t ControlRecordType) String() string {
	switch t {
	case ControlAbort:
		return "ABORT"
	case ControlCommit:
		return "COMMIT"
	case ControlLeaderChange:
		return "LEADER_CHANGE"
	case ControlSnapshotHeader:
		return "SNAPSHOT_HEADER"
	case ControlSnapshotFooter:
		return "SNAPSHOT_FOOTER"
	case ControlKRaftVersion:
		return "KRAFT_VERSION"
	case ControlKRaftVoters:
		return "KRAFT_VOTERS"
	}
	return fmt.Sprintf("UNKNOWN(%d)", int16(t))
}

// ParseControlRecordKey returns the type in the key of a record of a control
// batch (RecordBatch.IsControl): int16 version (0; newer versions are read
// the same way, as Kafka does), int16 type. A key shorter than 4 bytes or
// with a negative version fails with an error wrapping ErrCorruptMessage.
// Types other than ControlAbort and ControlCommit are returned as they are;
// a consumer skips control records whatever their type.
func ParseControlRecordKey(key []byte) (ControlRecordType, error) {
	if len(key) < 4 {
		return 0, fmt.Errorf("%w: control record key of %d bytes, want at least 4", ErrCorruptMessage, len(key))
	}
	if v := int16(binary.BigEndian.Uint16(key)); v < 0 {
		return 0, fmt.Errorf("%w: control record key version %d", ErrCorruptMessage, v)
	}
	return ControlRecordType(binary.BigEndian.Uint16(key[2:])), nil
}

// AppendControlRecordKey appends a version 0 control record key of type t.
func AppendControlRecordKey(dst []byte, t ControlRecordType) []byte {
	dst = AppendInt16(dst, 0)
	return AppendInt16(dst, int16(t))
}

// ParseEndTxnMarker returns the coordinator epoch in the value of a COMMIT or
// ABORT control record (EndTxnMarker: int16 version 0, int32
// coordinatorEpoch). A value shorter than 6 bytes or with a negative version
// fails with an error wrapping ErrCorruptMessage.
func ParseEndTxnMarker(value []byte) (coordinatorEpoch int32, err error) {
	if len(value) < 6 {
		return 0, fmt.Errorf("%w: end transaction marker of %d bytes, want at least 6", ErrCorruptMessage, len(value))
	}
	if v := int16(binary.BigEndian.Uint16(value)); v < 0 {
		return 0, fmt.Errorf("%w: end transaction marker version %d", ErrCorruptMessage, v)
	}
	return int32(binary.BigEndian.Uint32(value[2:])), nil
}

// AppendEndTxnMarker appends a version 0 end transaction marker value.
func AppendEndTxnMarker(dst []byte, coordinatorEpoch int32) []byte {
	dst = AppendInt16(dst, 0)
	return AppendInt32(dst, coordinatorEpoch)
}
