// Command fakeadapter is a scripted stand-in for an adapter, used only by the
// runner's self-tests: it reads commands from stdin and, for each, writes the
// lines of the next turn of the script named by $FAKE_ADAPTER_SCRIPT. A line
// may contain ${id} (the current command id) and ${KIND.path} (a field of
// the latest command of that kind, by dotted path). After the last turn it
// waits for stdin EOF and exits with the script's exit status.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
)

// Script is the fake's behaviour.
type Script struct {
	Turns [][]string `json:"turns"`
	Exit  int        `json:"exit"`
}

var ph = regexp.MustCompile(`\$\{([a-z_]+)(?:\.([a-z_.0-9]+))?\}`)

func main() {
	data, err := os.ReadFile(os.Getenv("FAKE_ADAPTER_SCRIPT"))
	if err != nil {
		fmt.Fprintln(os.Stderr, "fakeadapter:", err)
		os.Exit(3)
	}
	var s Script
	if err := json.Unmarshal(data, &s); err != nil {
		fmt.Fprintln(os.Stderr, "fakeadapter:", err)
		os.Exit(3)
	}
	last := map[string]map[string]any{}
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	out := bufio.NewWriter(os.Stdout)
	for i := 0; i < len(s.Turns); i++ {
		turn := s.Turns[i]
		line, err := in.ReadString('\n')
		if err != nil {
			os.Exit(4)
		}
		var cmd map[string]any
		if json.Unmarshal([]byte(line), &cmd) != nil {
			os.Exit(5)
		}
		kind, _ := cmd["kind"].(string)
		if kind == "abort" { // testctl's reaction to a scenario failure
			fmt.Fprintf(out, `{"protocol_version":34,"command_id":%q,"kind":"aborted"}`+"\n", cmd["command_id"])
			out.Flush()
			break
		}
		last[kind] = cmd
		id, _ := cmd["command_id"].(string)
		for _, l := range turn {
			l = ph.ReplaceAllStringFunc(l, func(m string) string {
				sub := ph.FindStringSubmatch(m)
				if sub[1] == "id" {
					return id
				}
				v := any(last[sub[1]])
				for _, k := range strings.Split(sub[2], ".") {
					mm, _ := v.(map[string]any)
					v = mm[k]
				}
				b, _ := json.Marshal(v)
				return strings.Trim(string(b), `"`)
			})
			out.WriteString(l + "\n")
		}
		out.Flush()
	}
	for {
		line, err := in.ReadString('\n')
		if err != nil {
			break
		}
		var cmd map[string]any
		if json.Unmarshal([]byte(line), &cmd) == nil && cmd["kind"] == "abort" {
			fmt.Fprintf(out, `{"protocol_version":34,"command_id":%q,"kind":"aborted"}`+"\n", cmd["command_id"])
			out.Flush()
		}
	}
	os.Exit(s.Exit)
}
