// Command lab runs gregor's reliability lab (issue 22, package lab) and
// prints its observation lines and the evidence verdict:
//
//	lab [-repo DIR] [-evidence DIR] [-cases a,b] [-name lab] [-timeout 14m]
//
// Without -cases every registered case runs. -name names the evidence file
// (<name>-<YYYY-MM-DD>.json in -evidence). The exit status is 0 only when the
// evidence says passed, 1 when it says failed, 2 on a usage error or when the
// evidence could not be written.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/testlab/lab"
	"github.com/gregor-kafka/gregor/testlab/lab/cases"
)

func main() {
	repo := flag.String("repo", ".", "repository root")
	evidence := flag.String("evidence", "testlab/evidence", "evidence directory")
	only := flag.String("cases", "", "comma-separated case names (default: all)")
	name := flag.String("name", "lab", "evidence file base name")
	timeout := flag.Duration("timeout", 14*time.Minute, "bound of the cases' run")
	flag.Parse()
	all := cases.Names()
	sel := all
	if *only != "" {
		sel = strings.Split(*only, ",")
		for _, c := range sel {
			if !slices.Contains(all, c) {
				fmt.Fprintf(os.Stderr, "lab: unknown case %q (cases: %s)\n", c, strings.Join(all, ", "))
				os.Exit(2)
			}
		}
	}
	root, err := filepath.Abs(*repo)
	if err != nil {
		fmt.Fprintf(os.Stderr, "lab: %v\n", err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	fmt.Printf("lab: %d case(s): %s\n", len(sel), strings.Join(sel, ", "))
	e, path, err := lab.Run(ctx, lab.Config{Repo: root, Cases: sel, EvidenceDir: *evidence, Name: *name,
		Timeout: *timeout, KafkaVersion: kafkatest.Version(), Progress: os.Stdout})
	if err != nil {
		fmt.Fprintf(os.Stderr, "lab: %v\n", err)
		os.Exit(2)
	}
	for _, r := range e.Reasons {
		fmt.Printf("  %s\n", r)
	}
	fmt.Printf("lab: evidence %s: %s\n", path, e.Status)
	if e.Status != lab.Passed {
		os.Exit(1)
	}
}
