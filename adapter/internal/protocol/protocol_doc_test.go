package protocol

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestProtocolDocCoversEveryKind keeps PROTOCOL.md honest: every v34
// command kind has an example command line that the adapter's own strict
// decoder reads (implemented kinds decode to their payload; unsupported ones
// are recognised by name), and every event kind the adapter can emit appears
// in an example event line with protocol_version 34.
func TestProtocolDocCoversEveryKind(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "PROTOCOL.md"))
	if err != nil {
		t.Fatal(err)
	}
	commands := map[string]bool{}
	events := map[string]bool{}
	for _, line := range strings.Split(string(doc), "\n") {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "> "):
			raw := strings.TrimPrefix(line, "> ")
			cmd, err := DecodeCommand([]byte(raw))
			if err != nil {
				// The failure-rule examples are invalid on purpose.
				if strings.Contains(raw, `"extra":1`) || strings.Contains(raw, `"protocol_version":35`) {
					continue
				}
				t.Errorf("example command does not decode: %v\n%s", err, raw)
				continue
			}
			if (cmd.Payload == nil) != unimplementedKinds[cmd.Kind] {
				t.Errorf("command %s: payload %T, unimplemented %v", cmd.Kind, cmd.Payload, unimplementedKinds[cmd.Kind])
			}
			commands[cmd.Kind] = true
		case strings.HasPrefix(line, "< "):
			var ev struct {
				Version int    `json:"protocol_version"`
				ID      string `json:"command_id"`
				Kind    string `json:"kind"`
			}
			if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "< ")), &ev); err != nil || ev.Version != 34 || ev.ID == "" {
				t.Errorf("example event is not a v34 event line (%v): %s", err, line)
				continue
			}
			events[ev.Kind] = true
		}
	}
	for kind := range commandPayloads {
		if !commands[kind] {
			t.Errorf("PROTOCOL.md has no example line for command %s", kind)
		}
	}
	for kind := range unimplementedKinds {
		if !commands[kind] {
			t.Errorf("PROTOCOL.md has no example line for unsupported command %s", kind)
		}
	}
	if n := len(commandPayloads) + len(unimplementedKinds); n != 61 {
		t.Errorf("%d command kinds known, v34 has 61", n)
	}
	emitted := emittedEventKinds(t)
	for kind := range emitted {
		if !events[kind] {
			t.Errorf("PROTOCOL.md has no example line for event %s", kind)
		}
	}
	t.Logf("%d command kinds and %d event kinds documented; the adapter emits %d event kinds", len(commands), len(events), len(emitted))
	if len(events) != 67 {
		t.Errorf("PROTOCOL.md shows %d event kinds, v34 has 67", len(events))
	}
}

// emittedEventKinds reads the kinds of the adapter's event types from its
// sources (their EventKind methods).
func emittedEventKinds(t *testing.T) map[string]bool {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`\) EventKind\(\) string \{ return "([a-z_]+)" \}`)
	kinds := map[string]bool{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllSubmatch(src, -1) {
			kinds[string(m[1])] = true
		}
	}
	if len(kinds) < 40 {
		t.Fatalf("found only %d EventKind methods; the pattern is stale", len(kinds))
	}
	return kinds
}
