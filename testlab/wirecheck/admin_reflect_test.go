package wirecheck

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"

	"github.com/gregor-kafka/gregor/wire"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// The admin cross-check compares gregor's messages with franz-go's kmsg (an
// independent encoder) field by field. Field names follow Kafka's JSON in
// both; kmsg renames some, listed here (ours -> kmsg candidates, tried after
// the same name).
var adminFieldAliases = map[string][]string{
	"ThrottleTimeMs":            {"ThrottleMillis"},
	"TimeoutMs":                 {"TimeoutMillis"},
	"Name":                      {"Topic", "Group"},
	"Assignments":               {"ReplicaAssignment", "Assignment"},
	"PartitionIndex":            {"Partition"},
	"BrokerIDs":                 {"Replicas"},
	"TopicConfigErrorCode":      {"ConfigErrorCode"},
	"ConfigSource":              {"Source"},
	"Results":                   {"Topics", "Resources", "Groups"},
	"Responses":                 {"Topics", "Resources"},
	"ConfigurationKeys":         {"ConfigNames"},
	"Synonyms":                  {"ConfigSynonyms"},
	"ConfigOperation":           {"Op"},
	"BrokerID":                  {"NodeID"},
	"GroupID":                   {"Group"},
	"GroupState":                {"State"},
	"ProtocolData":              {"Protocol"},
	"GroupInstanceID":           {"InstanceID"},
	"MemberMetadata":            {"ProtocolMetadata"},
	"GroupsNames":               {"Groups"},
	"GenerationIDOrMemberEpoch": {"Generation"},
	"RetentionTimeMs":           {"RetentionTimeMillis"},
	"CommittedOffset":           {"Offset"},
	"CommittedLeaderEpoch":      {"LeaderEpoch"},
	"CommittedMetadata":         {"Metadata"},
	"PartitionIndexes":          {"Partitions"},
	"GroupIDs":                  {"Groups"},
	"GroupEpoch":                {"Epoch"},
	"SubscribedTopicNames":      {"SubscribedTopics"},
	"TopicName":                 {"Topic"},
	"RebalanceTimeoutMs":        {"RebalanceTimeoutMillis"},
	"HeartbeatIntervalMs":       {"HeartbeatIntervalMillis"},
	"TopicPartitions":           {"Topics"},
}

var (
	taggedFieldsType = reflect.TypeOf([]wire.TaggedField(nil))
	kmsgTagsType     = reflect.TypeOf(kmsg.Tags{})
)

// fillMode selects how fill populates a message.
type fillMode int

const (
	fillFull   fillMode = iota // every field non-zero, pointers set, two elements per array
	fillSparse                 // pointers nil, scalars zero, one element per array
)

// fill sets every exported field of v (recursively) as mode says. seed
// makes values distinct. Unknown tags: ours get tag 60, kmsg's get tag 60.
func fill(v reflect.Value, seed *int, mode fillMode, depth int) {
	*seed++
	n := *seed
	switch v.Kind() {
	case reflect.Struct:
		if v.Type() == kmsgTagsType {
			if mode == fillFull {
				v.Addr().Interface().(*kmsg.Tags).Set(60, []byte{byte(n), 0xee})
			}
			return
		}
		for i := 0; i < v.NumField(); i++ {
			f := v.Type().Field(i)
			if !f.IsExported() || f.Name == "Version" {
				continue
			}
			if f.Type == taggedFieldsType {
				if mode == fillFull {
					v.Field(i).Set(reflect.ValueOf([]wire.TaggedField{{Tag: 60, Data: []byte{byte(n), 0xee}}}))
				}
				continue
			}
			fill(v.Field(i), seed, mode, depth+1)
		}
	case reflect.String:
		if mode == fillFull {
			v.SetString(fmt.Sprintf("s%d", n))
		}
	case reflect.Bool:
		v.SetBool(mode == fillFull)
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if mode == fillFull {
			v.SetInt(int64(n%100 + 1))
		}
	case reflect.Uint8:
		if mode == fillFull {
			v.SetUint(uint64(n%200 + 1))
		}
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			fill(v.Index(i), seed, mode, depth+1)
		}
	case reflect.Pointer:
		if mode == fillFull {
			v.Set(reflect.New(v.Type().Elem()))
			fill(v.Elem(), seed, mode, depth+1)
		}
	case reflect.Slice:
		k := 2
		if mode == fillSparse {
			k = 1
		}
		s := reflect.MakeSlice(v.Type(), k, k)
		for i := 0; i < k; i++ {
			fill(s.Index(i), seed, mode, depth+1)
		}
		v.Set(s)
	default:
		panic("fill: unhandled kind " + v.Kind().String())
	}
}

// diff compares our decoded message with kmsg's field by field and returns
// the differences. A field of ours that kmsg lacks must be zero (it is not on
// the wire at this version).
func diff(path string, ours, theirs reflect.Value) []string {
	// a nil struct pointer (a nullable struct) is compared as a pointer below
	if ours.Kind() == reflect.Pointer && ours.Type().Elem().Kind() == reflect.Struct && !ours.IsNil() {
		ours = ours.Elem()
	}
	if theirs.Kind() == reflect.Pointer && theirs.Type().Elem().Kind() == reflect.Struct && !theirs.IsNil() {
		theirs = theirs.Elem()
	}
	var out []string
	switch ours.Kind() {
	case reflect.Struct:
		if theirs.Kind() != reflect.Struct {
			return []string{fmt.Sprintf("%s: ours struct, kmsg %s", path, theirs.Kind())}
		}
		for i := 0; i < ours.NumField(); i++ {
			f := ours.Type().Field(i)
			if !f.IsExported() {
				continue
			}
			p := path + "." + f.Name
			if f.Type == taggedFieldsType {
				out = append(out, diffTags(p, ours.Field(i).Interface().([]wire.TaggedField), theirs.FieldByName("UnknownTags"))...)
				continue
			}
			tf, ok := theirField(theirs, f.Name)
			if !ok {
				if !ours.Field(i).IsZero() {
					out = append(out, fmt.Sprintf("%s: kmsg has no such field (ours %v)", p, ours.Field(i).Interface()))
				}
				continue
			}
			out = append(out, diff(p, ours.Field(i), tf)...)
		}
	case reflect.Slice:
		if theirs.Kind() != reflect.Slice {
			return []string{fmt.Sprintf("%s: ours slice, kmsg %s", path, theirs.Kind())}
		}
		if ours.Len() != theirs.Len() {
			return []string{fmt.Sprintf("%s: len ours %d kmsg %d", path, ours.Len(), theirs.Len())}
		}
		if ours.IsNil() != theirs.IsNil() && ours.Type().Elem().Kind() != reflect.Uint8 {
			out = append(out, fmt.Sprintf("%s: nil ours %v kmsg %v", path, ours.IsNil(), theirs.IsNil()))
		}
		if ours.Type().Elem().Kind() == reflect.Uint8 {
			if !bytes.Equal(ours.Bytes(), theirs.Bytes()) {
				out = append(out, fmt.Sprintf("%s: bytes ours %x kmsg %x", path, ours.Bytes(), theirs.Bytes()))
			}
			return out
		}
		for i := 0; i < ours.Len(); i++ {
			te := theirs.Index(i)
			// kmsg models an array of one-field structs (OffsetDelete
			// partitions) where ours keeps the scalars.
			if ours.Type().Elem().Kind() != reflect.Struct && te.Kind() == reflect.Struct {
				te = onlyField(te)
			}
			out = append(out, diff(fmt.Sprintf("%s[%d]", path, i), ours.Index(i), te)...)
		}
	case reflect.Pointer:
		if ours.IsNil() != theirs.IsNil() {
			return []string{fmt.Sprintf("%s: nil ours %v kmsg %v", path, ours.IsNil(), theirs.IsNil())}
		}
		if !ours.IsNil() {
			out = append(out, diff(path, ours.Elem(), theirs.Elem())...)
		}
	case reflect.String:
		if ours.String() != theirs.String() {
			out = append(out, fmt.Sprintf("%s: ours %q kmsg %q", path, ours.String(), theirs.String()))
		}
	case reflect.Bool:
		if ours.Bool() != theirs.Bool() {
			out = append(out, fmt.Sprintf("%s: ours %v kmsg %v", path, ours.Bool(), theirs.Bool()))
		}
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if ours.Int() != theirs.Int() {
			out = append(out, fmt.Sprintf("%s: ours %d kmsg %d", path, ours.Int(), theirs.Int()))
		}
	case reflect.Array:
		for i := 0; i < ours.Len(); i++ {
			if ours.Index(i).Uint() != theirs.Index(i).Uint() {
				return []string{fmt.Sprintf("%s: ours %v kmsg %v", path, ours.Interface(), theirs.Interface())}
			}
		}
	default:
		out = append(out, fmt.Sprintf("%s: unhandled kind %s", path, ours.Kind()))
	}
	return out
}

func theirField(theirs reflect.Value, name string) (reflect.Value, bool) {
	if f := theirs.FieldByName(name); f.IsValid() {
		return f, true
	}
	for _, alt := range adminFieldAliases[name] {
		if f := theirs.FieldByName(alt); f.IsValid() {
			return f, true
		}
	}
	return reflect.Value{}, false
}

func onlyField(s reflect.Value) reflect.Value {
	var only reflect.Value
	for i := 0; i < s.NumField(); i++ {
		if s.Type().Field(i).IsExported() && s.Type().Field(i).Type != kmsgTagsType {
			only = s.Field(i)
		}
	}
	return only
}

func diffTags(path string, ours []wire.TaggedField, theirs reflect.Value) []string {
	got := map[uint32]string{}
	for _, f := range ours {
		got[f.Tag] = fmt.Sprintf("%x", f.Data)
	}
	want := map[uint32]string{}
	if theirs.IsValid() {
		theirs.Addr().Interface().(*kmsg.Tags).Each(func(tag uint32, data []byte) { want[tag] = fmt.Sprintf("%x", data) })
	}
	if !reflect.DeepEqual(got, want) {
		return []string{fmt.Sprintf("%s: unknown tags ours %v kmsg %v", path, got, want)}
	}
	return nil
}

func joinDiffs(d []string) string {
	if len(d) > 12 {
		d = append(d[:12], fmt.Sprintf("... and %d more", len(d)-12))
	}
	return strings.Join(d, "\n")
}
