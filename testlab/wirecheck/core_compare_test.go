package wirecheck

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"

	"github.com/gregor-kafka/gregor/wire"
	"github.com/twmb/franz-go/pkg/kmsg"
)

var (
	coreTagsType  = reflect.TypeFor[[]wire.TaggedField]()
	coreKTagsType = reflect.TypeFor[kmsg.Tags]()
)

// coreKmsgOnly lists struct fields (by "Type.Field") that take no part in
// the positional match: kmsg's that exist only in versions below gregor's
// baseline (KIP-896), and gregor's that are not on the wire.
var coreKmsgOnly = map[string]bool{
	"ListOffsetsRequestTopicPartition.MaxNumOffsets":    true, // v0
	"ListOffsetsResponseTopicPartition.OldStyleOffsets": true, // v0
	// gregor-only, not on the wire: the version cap a transactions v1
	// producer sets (wire.VersionCapper).
	"ProduceRequest.VersionCap": true,
}

// fields returns the struct's fields that take part in the positional match:
// kmsg's top-level Version and coreKmsgOnly fields are left out.
func coreFields(t reflect.Type) []reflect.StructField {
	var out []reflect.StructField
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() || f.Name == "Version" || coreKmsgOnly[t.Name()+"."+f.Name] {
			continue
		}
		out = append(out, f)
	}
	return out
}

// compare walks our value g and kmsg's value k, matching struct fields by
// position (both follow the order of Kafka's JSON message definitions), and
// returns every difference found.
func coreCompare(path string, g, k reflect.Value) []string {
	if g.Type() == coreTagsType && k.Type() == coreKTagsType {
		return coreCompareTags(path, g.Interface().([]wire.TaggedField), k.Addr().Interface().(*kmsg.Tags))
	}
	switch g.Kind() {
	case reflect.Struct:
		if k.Kind() != reflect.Struct {
			return []string{fmt.Sprintf("%s: struct vs %s", path, k.Type())}
		}
		gf, kf := coreFields(g.Type()), coreFields(k.Type())
		if len(gf) != len(kf) {
			return []string{fmt.Sprintf("%s: %d fields %v vs kmsg %d fields %v", path, len(gf), coreNames(gf), len(kf), coreNames(kf))}
		}
		var diffs []string
		for i := range gf {
			diffs = append(diffs, coreCompare(path+"."+gf[i].Name+"/"+kf[i].Name, g.FieldByIndex(gf[i].Index), k.FieldByIndex(kf[i].Index))...)
		}
		return diffs
	case reflect.Pointer:
		if k.Kind() != reflect.Pointer {
			return []string{fmt.Sprintf("%s: pointer vs %s", path, k.Type())}
		}
		if g.IsNil() || k.IsNil() {
			if g.IsNil() != k.IsNil() {
				return []string{fmt.Sprintf("%s: nil %v vs kmsg nil %v", path, g.IsNil(), k.IsNil())}
			}
			return nil
		}
		return coreCompare(path, g.Elem(), k.Elem())
	case reflect.Slice:
		if k.Kind() != reflect.Slice {
			return []string{fmt.Sprintf("%s: slice vs %s", path, k.Type())}
		}
		if g.IsNil() != k.IsNil() {
			return []string{fmt.Sprintf("%s: nil %v (len %d) vs kmsg nil %v (len %d)", path, g.IsNil(), g.Len(), k.IsNil(), k.Len())}
		}
		if g.Len() != k.Len() {
			return []string{fmt.Sprintf("%s: len %d vs kmsg %d", path, g.Len(), k.Len())}
		}
		if g.Type().Elem().Kind() == reflect.Uint8 {
			if !bytes.Equal(g.Bytes(), k.Bytes()) {
				return []string{fmt.Sprintf("%s: %x vs kmsg %x", path, g.Bytes(), k.Bytes())}
			}
			return nil
		}
		var diffs []string
		for i := range g.Len() {
			diffs = append(diffs, coreCompare(fmt.Sprintf("%s[%d]", path, i), g.Index(i), k.Index(i))...)
		}
		return diffs
	case reflect.Array:
		if k.Kind() != reflect.Array || g.Len() != k.Len() {
			return []string{fmt.Sprintf("%s: %s vs %s", path, g.Type(), k.Type())}
		}
		for i := range g.Len() {
			if g.Index(i).Uint() != k.Index(i).Uint() {
				return []string{fmt.Sprintf("%s: %v vs kmsg %v", path, g.Interface(), k.Interface())}
			}
		}
		return nil
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if !k.CanInt() || g.Int() != k.Int() || g.Type().Size() != k.Type().Size() {
			return []string{fmt.Sprintf("%s: %v (%s) vs kmsg %v (%s)", path, g.Interface(), g.Type(), k.Interface(), k.Type())}
		}
		return nil
	case reflect.Bool, reflect.String:
		if g.Kind() != k.Kind() || !g.Equal(k) {
			return []string{fmt.Sprintf("%s: %q vs kmsg %q", path, g.Interface(), k.Interface())}
		}
		return nil
	}
	return []string{fmt.Sprintf("%s: unhandled kind %s", path, g.Kind())}
}

func coreCompareTags(path string, g []wire.TaggedField, k *kmsg.Tags) []string {
	var kt []wire.TaggedField
	k.Each(func(tag uint32, data []byte) { kt = append(kt, wire.TaggedField{Tag: tag, Data: data}) })
	eq := slices.EqualFunc(g, kt, func(a, b wire.TaggedField) bool { return a.Tag == b.Tag && bytes.Equal(a.Data, b.Data) })
	if !eq {
		return []string{fmt.Sprintf("%s: tags %v vs kmsg %v", path, g, kt)}
	}
	return nil
}

func coreNames(fs []reflect.StructField) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Name)
	}
	return out
}

// filler fills a message with random, non-trivial values: every integer,
// string and byte field set, pointers sometimes nil (null), slices nil, empty
// or one to three elements, and unknown tagged fields with tag numbers no
// Kafka version uses (40 and up) so they stay unknown on both sides.
type coreFiller struct{ rng *rand.Rand }

func (f *coreFiller) fill(v reflect.Value) {
	t := v.Type()
	switch {
	case t == coreTagsType:
		var tags []wire.TaggedField
		for tag := uint32(40); tag < 46; tag++ {
			if f.rng.IntN(3) == 0 {
				tags = append(tags, wire.TaggedField{Tag: tag, Data: f.bytes()})
			}
		}
		v.Set(reflect.ValueOf(tags))
		return
	case t == coreKTagsType:
		tags := v.Addr().Interface().(*kmsg.Tags)
		for tag := uint32(40); tag < 46; tag++ {
			if f.rng.IntN(3) == 0 {
				tags.Set(tag, f.bytes())
			}
		}
		return
	}
	switch v.Kind() {
	case reflect.Struct:
		for i := range t.NumField() {
			if t.Field(i).IsExported() && t.Field(i).Name != "Version" {
				f.fill(v.Field(i))
			}
		}
	case reflect.Pointer:
		if f.rng.IntN(4) == 0 {
			v.SetZero()
			return
		}
		p := reflect.New(t.Elem())
		f.fill(p.Elem())
		v.Set(p)
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			if f.rng.IntN(5) == 0 {
				v.SetZero()
			} else {
				v.SetBytes(f.bytes())
			}
			return
		}
		n := f.rng.IntN(5) - 1 // -1 = nil, 0 = empty, 1..3
		if n < 0 {
			v.SetZero()
			return
		}
		s := reflect.MakeSlice(t, n, n)
		for i := range n {
			f.fill(s.Index(i))
		}
		v.Set(s)
	case reflect.Array:
		for i := range v.Len() {
			v.Index(i).SetUint(uint64(f.rng.IntN(256)))
		}
	case reflect.Bool:
		v.SetBool(f.rng.IntN(2) == 0)
	case reflect.String:
		v.SetString(string(f.bytesOf("abcdefghijklmnopqrstuvwxyz.-_0123456789")))
	case reflect.Int8:
		v.SetInt(int64(int8(f.rng.Uint32())))
	case reflect.Int16:
		v.SetInt(int64(int16(f.rng.Uint32())))
	case reflect.Int32:
		v.SetInt(int64(int32(f.rng.Uint32())))
	case reflect.Int64:
		v.SetInt(int64(f.rng.Uint64()))
	default:
		panic("filler: unhandled kind " + v.Kind().String())
	}
}

func (f *coreFiller) bytes() []byte { return f.bytesOf("") }

func (f *coreFiller) bytesOf(alphabet string) []byte {
	b := make([]byte, f.rng.IntN(6))
	for i := range b {
		if alphabet == "" {
			b[i] = byte(f.rng.IntN(256))
		} else {
			b[i] = alphabet[f.rng.IntN(len(alphabet))]
		}
	}
	return b
}
