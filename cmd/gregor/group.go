package main

import (
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	gk "github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/admin"
)

var groupCmd = &command{
	name:    "group",
	summary: "list, describe, show offsets of, reset offsets of and delete consumer groups",
	subs:    []*command{groupListCmd, groupDescribeCmd, groupOffsetsCmd, groupResetCmd, groupDeleteCmd},
}

var groupListCmd = &command{
	name:    "list",
	summary: "list the groups of every broker",
	flags: leaf(func(fs *flag.FlagSet) func(*ioctx, *session, []string) error {
		consumerOnly := fs.Bool("consumer", false, "only consumer groups (classic with protocol type consumer, or KIP-848)")
		return func(io *ioctx, s *session, _ []string) error {
			ctx, cancel, err := s.op()
			if err != nil {
				return err
			}
			defer cancel()
			l, err := s.adm.ListGroups(ctx, admin.ListGroupsOptions{ConsumerOnly: *consumerOnly})
			if err != nil {
				return err
			}
			tw := tabwriter.NewWriter(io.stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "GROUP\tTYPE\tSTATE\tPROTOCOL-TYPE\tCOORDINATOR")
			for _, g := range l.Groups {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\n", g.GroupID, g.Type, g.State, g.ProtocolType, g.Coordinator)
			}
			if err := tw.Flush(); err != nil {
				return err
			}
			if f := l.Failed(); len(f) > 0 {
				return fmt.Errorf("%d broker(s) could not list their groups; the list is incomplete", len(f))
			}
			return nil
		}
	}, noArgs),
}

var groupDescribeCmd = &command{
	name:    "describe",
	usage:   "GROUP...",
	summary: "show a group's state, members and committed offsets with lag",
	flags: leaf(func(fs *flag.FlagSet) func(*ioctx, *session, []string) error {
		return func(io *ioctx, s *session, args []string) error {
			ctx, cancel, err := s.op()
			if err != nil {
				return err
			}
			defer cancel()
			ds, err := s.adm.DescribeConsumerGroups(ctx, args)
			if err != nil {
				return err
			}
			var errs []string
			for _, d := range ds {
				if d.Err != nil {
					errs = append(errs, fmt.Sprintf("group %s: %v", d.GroupID, d.Err))
					continue
				}
				fmt.Fprintf(io.stdout, "group %s  type %s  state %s  protocol %s  coordinator %d  members %d\n",
					d.GroupID, d.Type, d.State, d.Protocol, d.Coordinator, len(d.Members))
				if len(d.Members) > 0 {
					tw := tabwriter.NewWriter(io.stdout, 0, 4, 2, ' ', 0)
					fmt.Fprintln(tw, "MEMBER\tCLIENT-ID\tHOST\tASSIGNMENT")
					for _, m := range d.Members {
						var as []string
						for _, tp := range m.Assignment {
							as = append(as, fmt.Sprintf("%s/%d", tp.Topic, tp.Partition))
						}
						fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", m.MemberID, m.ClientID, m.ClientHost, strings.Join(as, ","))
					}
					tw.Flush()
				}
				if err := printGroupOffsets(io, s, d.GroupID); err != nil {
					return err
				}
			}
			return firstErr(errs)
		}
	}, atLeastOne("GROUP")),
}

var groupOffsetsCmd = &command{
	name:    "offsets",
	usage:   "GROUP",
	summary: "show a group's committed offsets, the end offsets and the lag",
	flags: leaf(func(fs *flag.FlagSet) func(*ioctx, *session, []string) error {
		return func(io *ioctx, s *session, args []string) error {
			return printGroupOffsets(io, s, args[0])
		}
	}, exactlyOne("GROUP")),
}

// printGroupOffsets prints TOPIC PARTITION COMMITTED END LAG for every
// partition the group has committed.
func printGroupOffsets(io *ioctx, s *session, group string) error {
	ctx, cancel, err := s.op()
	if err != nil {
		return err
	}
	defer cancel()
	res, err := s.adm.FetchOffsets(ctx, []admin.GroupOffsetsQuery{{GroupID: group}}, admin.FetchOffsetsOptions{})
	if err != nil {
		return err
	}
	if res[0].Err != nil {
		return fmt.Errorf("group %s: %w", group, res[0].Err)
	}
	offs := res[0].Offsets
	qs := make([]admin.OffsetQuery, len(offs))
	for i, o := range offs {
		qs[i] = admin.OffsetQuery{TopicPartition: o.TopicPartition, Spec: admin.OffsetLatest}
	}
	ends, err := s.adm.ListOffsets(ctx, qs, admin.ListOffsetsOptions{})
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(io.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TOPIC\tPARTITION\tCOMMITTED\tEND\tLAG")
	for i, o := range offs {
		committed, end, lag := "-", "?", "?"
		if o.Committed {
			committed = fmt.Sprint(o.Offset)
		}
		if ends[i].Err == nil {
			end = fmt.Sprint(ends[i].Offset)
			if o.Committed {
				lag = fmt.Sprint(max(ends[i].Offset-o.Offset, 0))
			}
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\n", o.Topic, o.Partition, committed, end, lag)
	}
	return tw.Flush()
}

var groupResetCmd = &command{
	name:    "reset-offsets",
	usage:   "GROUP",
	summary: "plan (default) or --execute new committed offsets for a group without members",
	help: `
Computes new committed offsets for the partitions of --topic (all, or
--partitions) and prints the plan: TOPIC PARTITION CURRENT NEW. Nothing
changes without --execute; with it the offsets are committed as an admin
(OffsetCommit with no member), which the broker refuses while the group has
active members. --to is earliest, latest, an offset, or @TIME (the first
record at or after TIME, Unix milliseconds or RFC 3339; the end offset when
every record is older).`,
	flags: leaf(func(fs *flag.FlagSet) func(*ioctx, *session, []string) error {
		topic := fs.String("topic", "", "the `topic` whose offsets to reset (required)")
		parts := fs.String("partitions", "", "only these partitions, e.g. `0,2,4-6` (default all)")
		to := fs.String("to", "", "new `position`: earliest, latest, OFFSET or @TIME (required)")
		execute := fs.Bool("execute", false, "commit the new offsets (default: dry run, print the plan only)")
		return func(io *ioctx, s *session, args []string) error {
			if *topic == "" || *to == "" {
				return usagef("--topic and --to are required")
			}
			return resetOffsets(io, s, args[0], *topic, *parts, *to, *execute)
		}
	}, exactlyOne("GROUP")),
}

func resetOffsets(io *ioctx, s *session, group, topic, partList, to string, execute bool) error {
	parts, err := topicPartitions(s, topic, partList)
	if err != nil {
		return err
	}
	var targets []int64
	switch {
	case to == "earliest":
		targets, err = listOffsets(s, topic, parts, admin.OffsetEarliest, false)
	case to == "latest":
		targets, err = listOffsets(s, topic, parts, admin.OffsetLatest, false)
	case strings.HasPrefix(to, "@"):
		var ms int64
		if ms, err = parseTime(to[1:]); err == nil {
			targets, err = listOffsets(s, topic, parts, admin.AtTimestamp(time.UnixMilli(ms)), false)
		}
	default:
		n, perr := strconv.ParseInt(to, 10, 64)
		if perr != nil || n < 0 {
			return usagef("--to %q: want earliest, latest, an offset >= 0 or @TIME", to)
		}
		targets = make([]int64, len(parts))
		for i := range targets {
			targets[i] = n
		}
	}
	if err != nil {
		return err
	}
	ctx, cancel, err := s.op()
	if err != nil {
		return err
	}
	defer cancel()
	tps := make([]gk.TopicPartition, len(parts))
	for i, p := range parts {
		tps[i] = gk.TopicPartition{Topic: topic, Partition: p}
	}
	cur, err := s.adm.FetchOffsets(ctx, []admin.GroupOffsetsQuery{{GroupID: group, Partitions: tps}}, admin.FetchOffsetsOptions{})
	if err != nil {
		return err
	}
	if cur[0].Err != nil {
		return fmt.Errorf("group %s: %w", group, cur[0].Err)
	}
	commits := make([]admin.OffsetToCommit, len(parts))
	for i, tp := range tps {
		commits[i] = admin.OffsetToCommit{TopicPartition: tp, Offset: targets[i], LeaderEpoch: -1}
	}
	printPlan(io.stdout, cur[0].Offsets, commits)
	if !execute {
		fmt.Fprintln(io.stdout, "dry run: nothing changed (add --execute to commit these offsets)")
		return nil
	}
	res, err := s.adm.AlterOffsets(ctx, group, commits)
	if err != nil {
		return err
	}
	var errs []string
	for _, r := range res {
		if r.Err != nil {
			errs = append(errs, fmt.Sprintf("%s/%d: %v", r.Topic, r.Partition, r.Err))
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("group %s: %s", group, strings.Join(errs, "; "))
	}
	fmt.Fprintf(io.stdout, "committed %d offsets for group %s\n", len(commits), group)
	return nil
}

func printPlan(w io.Writer, cur []admin.CommittedOffset, commits []admin.OffsetToCommit) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TOPIC\tPARTITION\tCURRENT\tNEW")
	for i, c := range commits {
		old := "-"
		if i < len(cur) && cur[i].Committed {
			old = fmt.Sprint(cur[i].Offset)
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%d\n", c.Topic, c.Partition, old, c.Offset)
	}
	tw.Flush()
}

var groupDeleteCmd = &command{
	name:    "delete",
	usage:   "GROUP...",
	summary: "delete groups without members",
	flags: leaf(func(fs *flag.FlagSet) func(*ioctx, *session, []string) error {
		return func(io *ioctx, s *session, args []string) error {
			ctx, cancel, err := s.op()
			if err != nil {
				return err
			}
			defer cancel()
			res, err := s.adm.DeleteGroups(ctx, args)
			if err != nil {
				return err
			}
			var errs []string
			for _, r := range res {
				if r.Err != nil {
					errs = append(errs, fmt.Sprintf("group %s: %v", r.GroupID, r.Err))
					continue
				}
				fmt.Fprintf(io.stdout, "deleted group %s\n", r.GroupID)
			}
			return firstErr(errs)
		}
	}, atLeastOne("GROUP")),
}
