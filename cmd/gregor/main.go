package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strings"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv)
	stop()
	os.Exit(code)
}

// env is the environment (os.Getenv, or a map in tests).
type env func(string) string

// ioctx is what a command reads and writes.
type ioctx struct {
	ctx    context.Context
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	getenv env
}

// command is one leaf command (gregor topic create) or a group of them.
type command struct {
	name    string
	usage   string // arguments after the flags
	summary string // one line
	help    string // more, after the summary
	flags   func(fs *flag.FlagSet) func(io *ioctx, args []string) error
	subs    []*command
}

var commands = []*command{produceCmd, consumeCmd, topicCmd, groupCmd, clusterCmd}

// usageError is an error caused by the command line (bad flag, missing
// argument); its message is followed by a pointer to --help.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// run executes the command line args and returns the exit status.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, getenv env) int {
	io := &ioctx{ctx: ctx, stdin: stdin, stdout: stdout, stderr: stderr, getenv: getenv}
	path := []string{"gregor"}
	cmds := commands
	var parent *command
	for {
		if len(args) == 0 {
			fmt.Fprintf(stderr, "%s: a command is required (see %s --help)\n", strings.Join(path, " "), strings.Join(path, " "))
			return 1
		}
		if a := args[0]; a == "-h" || a == "-help" || a == "--help" || a == "help" {
			printGroupHelp(stdout, path, parent, cmds)
			return 0
		}
		c := find(cmds, args[0])
		if c == nil {
			fmt.Fprintf(stderr, "%s: unknown command %q (see %s --help)\n", strings.Join(path, " "), args[0], strings.Join(path, " "))
			return 1
		}
		path = append(path, c.name)
		args = args[1:]
		if c.subs != nil {
			parent, cmds = c, c.subs
			continue
		}
		return runLeaf(io, path, c, args)
	}
}

func find(cmds []*command, name string) *command {
	for _, c := range cmds {
		if c.name == name {
			return c
		}
	}
	return nil
}

func printGroupHelp(w io.Writer, path []string, parent *command, cmds []*command) {
	name := strings.Join(path, " ")
	if parent == nil {
		fmt.Fprintf(w, "gregor: a command-line Kafka tool built on gregor's client.\n\nusage: gregor COMMAND [SUBCOMMAND] [flags] [args]\n\ncommands:\n")
	} else {
		fmt.Fprintf(w, "%s: %s\n\nusage: %s SUBCOMMAND [flags] [args]\n\nsubcommands:\n", name, parent.summary, name)
	}
	for _, c := range cmds {
		fmt.Fprintf(w, "  %-14s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(w, "\nRun '%s <command> --help' for a command's flags.\n", name)
	if parent == nil {
		fmt.Fprint(w, connectionHelp)
	}
}

const connectionHelp = `
Connection settings, lowest precedence first: a Java-style properties file
(-F, or GREGOR_CONFIG), the environment (GREGOR_BOOTSTRAP, GREGOR_CLIENT_ID,
GREGOR_SASL_MECHANISM, GREGOR_SASL_USER, GREGOR_SASL_PASSWORD, GREGOR_CA_FILE),
the flags, then -X key=value. Errors print one line and exit with status 1.
GREGOR_LOG_LEVEL=DEBUG|INFO|WARN|ERROR writes the client's log to stderr.
`

// runLeaf parses the flags of c (interleaved with its arguments) and runs it.
func runLeaf(io *ioctx, path []string, c *command, args []string) int {
	name := strings.Join(path, " ")
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(discard{})
	exec := c.flags(fs)
	fs.Usage = func() {}
	pos, err := parseInterleaved(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		printLeafHelp(io.stdout, name, c, fs)
		return 0
	}
	if err == nil {
		err = exec(io, pos)
	}
	if err == nil {
		return 0
	}
	msg := oneLine(err.Error())
	var ue *usageError
	if errors.As(err, &ue) || isFlagError(err) {
		msg += " (see " + name + " --help)"
	}
	fmt.Fprintf(io.stderr, "%s: %s\n", name, msg)
	return 1
}

func isFlagError(err error) bool {
	s := err.Error()
	return strings.HasPrefix(s, "flag provided but not defined") || strings.HasPrefix(s, "invalid value") ||
		strings.HasPrefix(s, "flag needs an argument") || strings.HasPrefix(s, "bad flag syntax") ||
		strings.HasPrefix(s, "invalid boolean")
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// parseInterleaved parses flags that may come after positional arguments
// ("topic create NAME --partitions 3"); "--" ends the flags.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

func printLeafHelp(w io.Writer, name string, c *command, fs *flag.FlagSet) {
	fmt.Fprintf(w, "%s: %s\n\nusage: %s [flags] %s\n", name, c.summary, name, c.usage)
	if c.help != "" {
		fmt.Fprintf(w, "\n%s\n", strings.TrimSpace(c.help))
	}
	var own, conn []string
	fs.VisitAll(func(f *flag.Flag) {
		if connFlagNames[f.Name] {
			conn = append(conn, f.Name)
		} else {
			own = append(own, f.Name)
		}
	})
	if len(own) > 0 {
		fmt.Fprintf(w, "\nflags:\n")
		printFlags(w, fs, own)
	}
	fmt.Fprintf(w, "\nconnection flags (every command):\n")
	printFlags(w, fs, conn)
}

func printFlags(w io.Writer, fs *flag.FlagSet, names []string) {
	sort.Strings(names)
	for _, n := range names {
		f := fs.Lookup(n)
		typ, usage := flag.UnquoteUsage(f)
		dash := "--"
		if len(n) == 1 {
			dash = "-"
		}
		line := "  " + dash + n
		if typ != "" {
			line += " " + typ
		}
		fmt.Fprintf(w, "%s\n      %s", line, usage)
		if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" && f.DefValue != "[]" {
			fmt.Fprintf(w, " (default %s)", f.DefValue)
		}
		fmt.Fprintln(w)
	}
}

// oneLine makes a multi-line error message fit one line.
func oneLine(s string) string {
	s = strings.TrimSpace(s)
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", " ")), " ")
}
