package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/producer"
	"github.com/gregor-kafka/gregor/wire"
)

// gregor runs the command line in-process and returns its outputs and exit
// status. env is the whole environment the command sees.
func gregor(t *testing.T, stdin string, env map[string]string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), args, strings.NewReader(stdin), &out, &errb, func(k string) string { return env[k] })
	return out.String(), errb.String(), code
}

// wantOneLineFailure checks exit status 1 and exactly one line on stderr
// containing want.
func wantOneLineFailure(t *testing.T, stderr string, code int, want string) {
	t.Helper()
	if code != 1 {
		t.Fatalf("exit status %d, want 1 (stderr %q)", code, stderr)
	}
	if strings.Count(stderr, "\n") != 1 || !strings.HasSuffix(stderr, "\n") {
		t.Fatalf("stderr is not one line: %q", stderr)
	}
	if !strings.Contains(stderr, want) {
		t.Fatalf("stderr %q lacks %q", stderr, want)
	}
}

// leaves lists every leaf command path.
func leaves(prefix []string, cmds []*command) [][]string {
	var out [][]string
	for _, c := range cmds {
		p := append(append([]string(nil), prefix...), c.name)
		if c.subs != nil {
			out = append(out, leaves(p, c.subs)...)
		} else {
			out = append(out, p)
		}
	}
	return out
}

func TestHelpEveryCommand(t *testing.T) {
	out, errOut, code := gregor(t, "", nil, "--help")
	if code != 0 || errOut != "" {
		t.Fatalf("gregor --help: status %d, stderr %q", code, errOut)
	}
	for _, c := range commands {
		if !strings.Contains(out, "  "+c.name+" ") {
			t.Fatalf("gregor --help does not list %s:\n%s", c.name, out)
		}
	}
	for _, c := range commands {
		if c.subs == nil {
			continue
		}
		out, _, code := gregor(t, "", nil, c.name, "--help")
		if code != 0 {
			t.Fatalf("gregor %s --help: status %d", c.name, code)
		}
		for _, s := range c.subs {
			if !strings.Contains(out, "  "+s.name+" ") {
				t.Fatalf("gregor %s --help does not list %s:\n%s", c.name, s.name, out)
			}
		}
	}
	all := leaves(nil, commands)
	if len(all) != 14 {
		t.Fatalf("%d leaf commands, want 14: %v", len(all), all)
	}
	for _, path := range all {
		for _, h := range []string{"--help", "-h"} {
			out, errOut, code := gregor(t, "", nil, append(path, h)...)
			name := "gregor " + strings.Join(path, " ")
			if code != 0 || errOut != "" {
				t.Fatalf("%s %s: status %d, stderr %q", name, h, code, errOut)
			}
			for _, want := range []string{name + ": ", "usage: " + name + " [flags]", "connection flags (every command):", "  --bootstrap host:port", "  -F file", "  --timeout duration"} {
				if !strings.Contains(out, want) {
					t.Fatalf("%s %s lacks %q:\n%s", name, h, want, out)
				}
			}
		}
	}
	out, _, _ = gregor(t, "", nil, "consume", "--help")
	for _, want := range []string{"--group group", "committed offset", "--group-protocol protocol", "--from position", "@TIME", "--format string"} {
		if !strings.Contains(out, want) {
			t.Fatalf("consume --help lacks %q:\n%s", want, out)
		}
	}
	out, _, _ = gregor(t, "", nil, "produce", "--help")
	for _, want := range []string{"--key-separator SEP", "--rate records/s", "--progress", "-H key=value", "value_base64"} {
		if !strings.Contains(out, want) {
			t.Fatalf("produce --help lacks %q:\n%s", want, out)
		}
	}
}

func TestCommandLineErrors(t *testing.T) {
	env := map[string]string{"GREGOR_BOOTSTRAP": "127.0.0.1:1"}
	cases := []struct {
		args []string
		env  map[string]string
		want string
	}{
		{nil, env, "gregor: a command is required"},
		{[]string{"bogus"}, env, `gregor: unknown command "bogus"`},
		{[]string{"topic"}, env, "gregor topic: a command is required"},
		{[]string{"topic", "frobnicate"}, env, `gregor topic: unknown command "frobnicate"`},
		{[]string{"topic", "list", "--nope"}, env, "gregor topic list: flag provided but not defined: -nope (see gregor topic list --help)"},
		{[]string{"topic", "create", "x", "--partitions", "many"}, env, `invalid value "many" for flag -partitions`},
		{[]string{"topic", "create"}, env, "gregor topic create: want at least one TOPIC (see gregor topic create --help)"},
		{[]string{"topic", "list"}, nil, "no broker address"},
		{[]string{"produce", "t", "--format", "xml"}, env, `--format "xml": want text or json`},
		{[]string{"consume", "t", "--group", "g", "--partitions", "1"}, env, "--partitions: with --group the group assigns the partitions"},
		{[]string{"consume", "t", "--group", "g", "--from", "5"}, env, `--from "5": with --group, beginning or end`},
		{[]string{"consume", "t", "--group", "g", "--group-protocol", "eager"}, env, `--group-protocol "eager": want classic or consumer`},
		{[]string{"consume", "t", "-X", "group.id=g", "--partitions", "1"}, env, "--partitions: with --group the group assigns the partitions"},
		{[]string{"cluster", "describe", "-X", "linger.mss=5"}, env, `properties: linger.mss="5": unknown key`},
		{[]string{"cluster", "describe", "-X", "acks=1"}, env, "would weaken durability"},
		{[]string{"cluster", "describe", "-F", "/nonexistent/client.properties"}, env, "no such file"},
		{[]string{"cluster", "describe", "--sasl-password", "x"}, env, "a SASL password needs --sasl-user"},
		{[]string{"cluster", "describe"}, map[string]string{"GREGOR_BOOTSTRAP": "127.0.0.1:1", "GREGOR_LOG_LEVEL": "loud"}, `GREGOR_LOG_LEVEL "loud": want DEBUG, INFO, WARN or ERROR`},
	}
	for _, tc := range cases {
		_, errOut, code := gregor(t, "", tc.env, tc.args...)
		wantOneLineFailure(t, errOut, code, tc.want)
	}
}

func TestUnreachableBroker(t *testing.T) {
	// Port 1 on loopback refuses connections.
	_, errOut, code := gregor(t, "", nil, "topic", "list", "-b", "127.0.0.1:1", "--timeout", "1s")
	wantOneLineFailure(t, errOut, code, "gregor topic list: cannot connect to 127.0.0.1:1:")
}

// TestRefusedBootstrapFailsFast (issue 36): with the default 30s timeout,
// bootstrap addresses that all refuse connections fail the command after a
// few quick retries (not at the deadline), on one line that says so.
func TestRefusedBootstrapFailsFast(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second) // below the command's 30s
	defer cancel()
	var out, errb bytes.Buffer
	code := run(ctx, []string{"topic", "list", "-b", "127.0.0.1:1,127.0.0.1:2"}, strings.NewReader(""), &out, &errb, func(string) string { return "" })
	if ctx.Err() != nil {
		t.Fatalf("still retrying when the test's 20s ran out: %q", errb.String())
	}
	wantOneLineFailure(t, errb.String(), code, "every bootstrap address refused the connection")
}

func TestParseInterleavedFlags(t *testing.T) {
	_, errOut, code := gregor(t, "", nil, "topic", "create", "a", "--partitions", "0", "b", "-b", "127.0.0.1:1", "--timeout", "1s")
	// The flags after the names were parsed: --partitions 0 is refused before connecting.
	wantOneLineFailure(t, errOut, code, "--partitions and --replication-factor must be positive")
}

func TestProduceRateLimit(t *testing.T) {
	o := &produceOpts{topic: "t", format: "text", partition: -1, rate: 200, maxLine: 1 << 20}
	var times []time.Time
	start := time.Now()
	err := readRecords(context.Background(), strings.NewReader(strings.Repeat("v\n", 21)), o, nil, func(int, *producer.Record) error {
		times = append(times, time.Now())
		return nil
	})
	if err != nil || len(times) != 21 {
		t.Fatalf("%d records, %v", len(times), err)
	}
	// Record i is not sent before start + i/rate: 20 intervals of 5ms.
	if d := times[20].Sub(start); d < 95*time.Millisecond {
		t.Fatalf("21 records at 200/s took %v, want at least 100ms", d)
	}
}

func TestTextInputKeySeparator(t *testing.T) {
	o := &produceOpts{topic: "t", format: "text", partition: 2, keySep: "::", maxLine: 1 << 20}
	var got []string
	err := readRecords(context.Background(), strings.NewReader("a::b::c\n::\nno separator\n"), o, []wire.Header{{Key: "h", Value: []byte("v")}}, func(n int, m *producer.Record) error {
		got = append(got, fmt.Sprintf("%d %s %q=%q %s %s", n, m.Topic, m.Key, m.Value, m.Partition, m.Headers[0].Key))
		return nil
	})
	want := []string{`1 t "a"="b::c" 2 h`, `2 t ""="" 2 h`}
	if fmt.Sprint(got) != fmt.Sprint(want) || err == nil || err.Error() != `line 3: no key separator "::"` {
		t.Fatalf("got %q, %v", got, err)
	}
}

func TestConnFlagNamesMatch(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	addConnFlags(fs)
	n := 0
	fs.VisitAll(func(f *flag.Flag) {
		n++
		if !connFlagNames[f.Name] {
			t.Errorf("connection flag %s missing from connFlagNames", f.Name)
		}
	})
	if n != len(connFlagNames) {
		t.Errorf("%d connection flags, connFlagNames has %d", n, len(connFlagNames))
	}
}
