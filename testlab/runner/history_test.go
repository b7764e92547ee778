package runner

import "testing"

// TestRecordID: the operation header identifies a record; without it the
// content does, with null and empty told apart.
func TestRecordID(t *testing.T) {
	op := content{Value: []byte("v"), Headers: []header{{Name: "testlab-operation-id", Value: []byte("op-1")}}}
	if got := recordID(op); got != "op:op-1" {
		t.Errorf("recordID with the operation header = %q", got)
	}
	null, empty := recordID(content{Key: nil, Value: []byte("v")}), recordID(content{Key: []byte{}, Value: []byte("v")})
	if null == empty {
		t.Errorf("null and empty keys share the ID %q", null)
	}
	if a, b := recordID(content{Key: []byte("ab"), Value: []byte("c")}), recordID(content{Key: []byte("a"), Value: []byte("bc")}); a == b {
		t.Errorf("different splits of key and value share the ID %q", a)
	}
	if a, b := recordID(content{Value: []byte("v")}), recordID(content{Value: []byte("v")}); a != b {
		t.Errorf("equal contents have IDs %q and %q", a, b)
	}
}
