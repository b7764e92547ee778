package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
)

// strictUnmarshal decodes one JSON value into v the way the Rust schema's
// deny_unknown_fields does: unknown keys are rejected at every level
// (json.Decoder.DisallowUnknownFields), every field is required unless its
// struct tag says `adapter:"optional"`, null is accepted only where the Go
// type is a pointer, and nothing may follow the value.
func strictUnmarshal(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("trailing data after JSON value")
	}
	if _, err := dec.Token(); err == nil {
		return errors.New("trailing data after JSON value")
	}
	return checkRequired(reflect.TypeOf(v).Elem(), data, "")
}

var unmarshalerType = reflect.TypeFor[json.Unmarshaler]()

// checkRequired walks t alongside the raw JSON and reports the first missing
// required key or misplaced null. Types with their own UnmarshalJSON check
// themselves and are not entered.
func checkRequired(t reflect.Type, data []byte, path string) error {
	data = bytes.TrimSpace(data)
	isNull := bytes.Equal(data, []byte("null"))
	if t.Kind() == reflect.Pointer {
		if isNull {
			return nil
		}
		return checkRequired(t.Elem(), data, path)
	}
	if isNull {
		return fmt.Errorf("%s: null is not allowed", pathName(path))
	}
	if reflect.PointerTo(t).Implements(unmarshalerType) {
		return nil
	}
	switch t.Kind() {
	case reflect.Struct:
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(data, &obj); err != nil {
			return err
		}
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			name, ok := jsonName(f)
			if !ok {
				continue
			}
			raw, present := obj[name]
			if !present {
				if f.Tag.Get("adapter") == "optional" {
					continue
				}
				return fmt.Errorf("missing field %q", path+name)
			}
			if err := checkRequired(f.Type, raw, path+name+"."); err != nil {
				return err
			}
		}
	case reflect.Slice:
		var elems []json.RawMessage
		if err := json.Unmarshal(data, &elems); err != nil {
			return err
		}
		for i, e := range elems {
			if err := checkRequired(t.Elem(), e, fmt.Sprintf("%s[%d].", trimDot(path), i)); err != nil {
				return err
			}
		}
	}
	return nil
}

func jsonName(f reflect.StructField) (string, bool) {
	if !f.IsExported() {
		return "", false
	}
	tag := f.Tag.Get("json")
	if tag == "-" {
		return "", false
	}
	name, _, _ := cutComma(tag)
	if name == "" {
		name = f.Name
	}
	return name, true
}

func cutComma(s string) (string, string, bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == ',' {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

func trimDot(p string) string {
	if len(p) > 0 && p[len(p)-1] == '.' {
		return p[:len(p)-1]
	}
	return p
}

func pathName(p string) string {
	if p == "" {
		return "value"
	}
	return trimDot(p)
}

// tagOf reads the "kind" tag of a tagged union object (§1.5) without
// judging the other keys.
func tagOf(data []byte) (string, error) {
	var probe struct {
		Kind *string `json:"kind"`
	}
	if err := json.Unmarshal(data, &probe); err != nil {
		return "", err
	}
	if probe.Kind == nil {
		return "", errors.New(`missing tag "kind"`)
	}
	return *probe.Kind, nil
}
