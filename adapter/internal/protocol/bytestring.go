package protocol

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"unicode/utf8"
)

// Encodings of a ByteString (§3.1).
const (
	EncodingUTF8 = "utf8"
	EncodingHex  = "hex"
)

// ByteString is the protocol's byte string (§3.1): {"encoding":"utf8"|"hex",
// "data":string}. Commands may use either encoding; events always use lower
// case hex (HexBytes). A null ByteString is a Go nil *ByteString.
type ByteString struct {
	Encoding string `json:"encoding"`
	Data     string `json:"data"`
}

// HexBytes returns the event form of b: hex encoding, lower case.
func HexBytes(b []byte) *ByteString {
	if b == nil {
		return nil
	}
	return &ByteString{Encoding: EncodingHex, Data: hex.EncodeToString(b)}
}

// BytesError reports a ByteString whose data does not decode (bad hex);
// the adapter answers it with fatal adapter_record_bytes (§9.3).
type BytesError struct{ Msg string }

// Error returns "record bytes: " followed by Msg.
func (e *BytesError) Error() string { return "record bytes: " + e.Msg }

// Bytes decodes the byte string. A nil receiver (JSON null) yields nil; an
// empty string yields a non-nil empty slice.
func (b *ByteString) Bytes() ([]byte, error) {
	if b == nil {
		return nil, nil
	}
	switch b.Encoding {
	case EncodingUTF8:
		return []byte(b.Data), nil
	case EncodingHex:
		out, err := hex.DecodeString(b.Data)
		if err != nil {
			return nil, &BytesError{Msg: fmt.Sprintf("bad hex: %v", err)}
		}
		return out, nil
	}
	return nil, &BytesError{Msg: fmt.Sprintf("unknown encoding %q", b.Encoding)}
}

// UnmarshalJSON decodes strictly: exactly the keys encoding and data, a known
// encoding and, for utf8, valid UTF-8. Hex digits are checked when the bytes
// are used (Bytes), so that bad hex becomes adapter_record_bytes.
func (b *ByteString) UnmarshalJSON(data []byte) error {
	type plain ByteString
	var p plain
	if err := strictUnmarshal(data, &p); err != nil {
		return err
	}
	if p.Encoding != EncodingUTF8 && p.Encoding != EncodingHex {
		return fmt.Errorf("byte string: unknown encoding %q", p.Encoding)
	}
	if p.Encoding == EncodingUTF8 && !utf8.ValidString(p.Data) {
		return fmt.Errorf("byte string: invalid utf8")
	}
	*b = ByteString(p)
	return nil
}

var _ json.Unmarshaler = (*ByteString)(nil)
