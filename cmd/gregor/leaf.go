package main

import (
	"errors"
	"flag"
	"strings"
)

// leaf builds a leaf command's flag function for the common shape: connection
// flags, own flags, argument check, then run with a session that connects on
// first use (so bad flags are reported before any connection attempt).
func leaf(own func(fs *flag.FlagSet) func(io *ioctx, s *session, args []string) error, check func(args []string) error) func(fs *flag.FlagSet) func(*ioctx, []string) error {
	return func(fs *flag.FlagSet) func(*ioctx, []string) error {
		conn := addConnFlags(fs)
		do := own(fs)
		return func(io *ioctx, args []string) error {
			if err := check(args); err != nil {
				return err
			}
			s := &session{conn: conn, io: io}
			defer s.close()
			return do(io, s, args)
		}
	}
}

func atLeastOne(what string) func([]string) error {
	return func(args []string) error {
		if len(args) == 0 {
			return usagef("want at least one %s", what)
		}
		return nil
	}
}

func noArgs(args []string) error {
	if len(args) > 0 {
		return usagef("unexpected argument %q", args[0])
	}
	return nil
}

func exactlyOne(what string) func([]string) error {
	return func(args []string) error {
		if len(args) != 1 {
			return usagef("want exactly one %s, got %d arguments", what, len(args))
		}
		return nil
	}
}

// firstErr joins per-resource failures into one error naming them.
func firstErr(errs []string) error {
	if len(errs) == 0 {
		return nil
	}
	return errors.New(strings.Join(errs, "; "))
}
