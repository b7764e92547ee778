package judge

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// The strict decoder turns one JSON value into a Go value the way the v34
// schema's deny_unknown_fields structs do, and stricter than encoding/json:
//
//   - a struct is a JSON object with exactly the keys of its json tags: a
//     missing key, an unknown key and a repeated key are errors (absent
//     optionals must be explicit null, §1.5);
//   - null is accepted only where the Go type is a pointer (nil = null), so
//     null and zero stay apart; null for anything else is an error;
//   - integers are JSON integers (no fraction, no exponent, no string) within
//     the Go type's range (int32 for i32, uint64 for u64, ...);
//   - strings, booleans and arrays must have exactly that JSON type;
//   - a type with a validate method (enums, identifiers, ByteString, ...) is
//     checked after decoding;
//   - a type with a decodeStrict method (tagged unions) decodes itself.
//
// Every error names the path of the offending value, e.g.
// operation_terminal.offset or receive_completed.records[0].key.encoding.

// validator is implemented by types with rules beyond their JSON shape.
type validator interface {
	validate() error
}

// strictDecoder is implemented by types that decode themselves (tagged
// unions); raw is never JSON null.
type strictDecoder interface {
	decodeStrict(raw json.RawMessage, path string) error
}

var (
	validatorType     = reflect.TypeFor[validator]()
	strictDecoderType = reflect.TypeFor[strictDecoder]()
)

// decodeStrict decodes raw into v, which must be a non-nil pointer.
func decodeStrict(raw json.RawMessage, v any, path string) error {
	return decodeValue(raw, reflect.ValueOf(v).Elem(), path)
}

func decodeValue(raw json.RawMessage, v reflect.Value, path string) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return fmt.Errorf("%s: empty value", path)
	}
	if v.Kind() == reflect.Pointer {
		if isNull(raw) {
			v.SetZero()
			return nil
		}
		p := reflect.New(v.Type().Elem())
		if err := decodeValue(raw, p.Elem(), path); err != nil {
			return err
		}
		v.Set(p)
		return nil
	}
	if isNull(raw) {
		return fmt.Errorf("%s: null, want %s", path, typeName(v.Type()))
	}
	if v.Addr().Type().Implements(strictDecoderType) {
		return v.Addr().Interface().(strictDecoder).decodeStrict(raw, path)
	}
	if err := decodeKind(raw, v, path); err != nil {
		return err
	}
	if v.Addr().Type().Implements(validatorType) {
		if err := v.Addr().Interface().(validator).validate(); err != nil {
			return fmt.Errorf("%s: %v", path, err)
		}
	}
	return nil
}

func decodeKind(raw json.RawMessage, v reflect.Value, path string) error {
	switch v.Kind() {
	case reflect.Struct:
		return decodeStruct(raw, v, path)
	case reflect.Slice:
		if raw[0] != '[' {
			return wrongType(path, raw, v.Type())
		}
		var elems []json.RawMessage
		if err := json.Unmarshal(raw, &elems); err != nil {
			return fmt.Errorf("%s: %v", path, err)
		}
		s := reflect.MakeSlice(v.Type(), len(elems), len(elems))
		for i, e := range elems {
			if err := decodeValue(e, s.Index(i), fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
		v.Set(s)
		return nil
	case reflect.String:
		if raw[0] != '"' {
			return wrongType(path, raw, v.Type())
		}
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return fmt.Errorf("%s: %v", path, err)
		}
		v.SetString(s)
		return nil
	case reflect.Bool:
		switch string(raw) {
		case "true":
			v.SetBool(true)
		case "false":
			v.SetBool(false)
		default:
			return wrongType(path, raw, v.Type())
		}
		return nil
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Int:
		if !isInteger(raw) {
			return wrongType(path, raw, v.Type())
		}
		n, err := strconv.ParseInt(string(raw), 10, v.Type().Bits())
		if err != nil {
			return fmt.Errorf("%s: %s is out of range for %s", path, raw, typeName(v.Type()))
		}
		v.SetInt(n)
		return nil
	case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uint:
		if !isInteger(raw) {
			return wrongType(path, raw, v.Type())
		}
		n, err := strconv.ParseUint(string(raw), 10, v.Type().Bits())
		if err != nil {
			return fmt.Errorf("%s: %s is out of range for %s", path, raw, typeName(v.Type()))
		}
		v.SetUint(n)
		return nil
	}
	return fmt.Errorf("%s: the judge cannot decode Go type %s", path, v.Type())
}

// decodeStruct requires exactly the struct's json keys.
func decodeStruct(raw json.RawMessage, v reflect.Value, path string) error {
	obj, err := objectFields(raw, path)
	if err != nil {
		return err
	}
	return decodeFields(obj, v, path)
}

// decodeFields decodes an object's members into struct v.
func decodeFields(obj map[string]json.RawMessage, v reflect.Value, path string) error {
	t := v.Type()
	known := map[string]bool{}
	var missing []string
	for i := 0; i < t.NumField(); i++ {
		name := jsonName(t.Field(i))
		if name == "" {
			continue
		}
		known[name] = true
		fv, ok := obj[name]
		if !ok {
			missing = append(missing, name)
			continue
		}
		if err := decodeValue(fv, v.Field(i), path+"."+name); err != nil {
			return err
		}
	}
	var extra []string
	for k := range obj {
		if !known[k] {
			extra = append(extra, k)
		}
	}
	sort.Strings(extra)
	if len(missing)+len(extra) > 0 {
		return fmt.Errorf("%s: missing keys %v (absent optionals must be explicit null), unknown keys %v", path, missing, extra)
	}
	return nil
}

// objectFields splits a JSON object into its members; a repeated key is an
// error (encoding/json would silently keep the last one).
func objectFields(raw json.RawMessage, path string) (map[string]json.RawMessage, error) {
	if len(raw) == 0 || raw[0] != '{' {
		return nil, fmt.Errorf("%s: %s, want an object", path, jsonType(raw))
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	out := map[string]json.RawMessage{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		key, _ := tok.(string) // object keys are always strings once Token succeeded
		var val json.RawMessage
		if err := dec.Decode(&val); err != nil {
			return nil, fmt.Errorf("%s.%s: %v", path, key, err)
		}
		if _, dup := out[key]; dup {
			return nil, fmt.Errorf("%s: key %q appears twice", path, key)
		}
		out[key] = val
	}
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return out, nil
}

func jsonName(f reflect.StructField) string {
	tag := f.Tag.Get("json")
	if tag == "" || tag == "-" || !f.IsExported() {
		return ""
	}
	name, _, _ := strings.Cut(tag, ",")
	return name
}

func isNull(raw []byte) bool { return string(raw) == "null" }

// isInteger reports whether raw is a JSON number without fraction or exponent.
func isInteger(raw []byte) bool {
	s := string(raw)
	s = strings.TrimPrefix(s, "-")
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return len(s) == 1 || s[0] != '0'
}

func wrongType(path string, raw []byte, t reflect.Type) error {
	return fmt.Errorf("%s: %s %.40s, want %s", path, jsonType(raw), raw, typeName(t))
}

// jsonType names the JSON type of raw.
func jsonType(raw []byte) string {
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// typeName names a Go type in the protocol's terms.
func typeName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Struct:
		return "an object"
	case reflect.Slice:
		return "an array"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Int:
		return fmt.Sprintf("an integer (i%d)", t.Bits())
	case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uint:
		return fmt.Sprintf("an integer (u%d)", t.Bits())
	case reflect.Pointer:
		return typeName(t.Elem()) + " or null"
	}
	return t.String()
}
