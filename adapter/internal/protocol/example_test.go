package protocol_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/gregor-kafka/gregor/adapter/internal/protocol"
)

// Example drives a session as bin/gregor-adapter does (commands on stdin,
// events on stdout; PROTOCOL.md describes every kind): hello answers
// ready with the adapter's descriptor, finish ends the session with exit
// status 0. hello does not connect yet (create_client and the commands
// after it do), so this runs without a broker; it prints each event's
// kind and the command it answers.
func Example() {
	in := strings.Join([]string{
		`{"protocol_version":34,"command_id":"c-1","kind":"hello","run_id":"r1","scenario_id":"s1","broker_endpoints":["127.0.0.1:9092"],"security":{"kind":"plaintext"}}`,
		`{"protocol_version":34,"command_id":"c-2","kind":"finish"}`,
	}, "\n") + "\n"
	var out bytes.Buffer
	status := protocol.NewSession(protocol.Gregor{}, &out, os.Stderr).Run(strings.NewReader(in))
	sc := bufio.NewScanner(&out)
	for sc.Scan() {
		var ev struct {
			CommandID string `json:"command_id"`
			Kind      string `json:"kind"`
		}
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			fmt.Println("not JSON:", err)
			continue
		}
		fmt.Println(ev.CommandID, ev.Kind)
	}
	fmt.Println("exit status", status)
	// Output:
	// c-1 ready
	// c-2 finished
	// exit status 0
}
