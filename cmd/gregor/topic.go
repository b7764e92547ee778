package main

import (
	"errors"
	"flag"
	"fmt"
	"strings"
	"text/tabwriter"

	gk "github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/admin"
	"github.com/gregor-kafka/gregor/wire"
)

var topicCmd = &command{
	name:    "topic",
	summary: "create, list, describe, alter the configs of and delete topics",
	subs:    []*command{topicCreateCmd, topicListCmd, topicDescribeCmd, topicAlterCmd, topicDeleteCmd},
}

var topicCreateCmd = &command{
	name:    "create",
	usage:   "TOPIC...",
	summary: "create topics and wait until every broker knows them",
	flags: leaf(func(fs *flag.FlagSet) func(*ioctx, *session, []string) error {
		partitions := fs.Int("partitions", -1, "partition `count` (-1: the broker's num.partitions)")
		rf := fs.Int("replication-factor", -1, "`replicas` per partition (-1: the broker's default.replication.factor)")
		var configs multiFlag
		fs.Var(&configs, "config", "topic config `key=value` (repeatable), e.g. cleanup.policy=compact")
		ifNotExists := fs.Bool("if-not-exists", false, "succeed when the topic already exists")
		validate := fs.Bool("validate-only", false, "check the request without creating anything")
		return func(io *ioctx, s *session, args []string) error {
			cfg := map[string]string{}
			for _, kv := range configs {
				k, v, err := parseKV("--config", kv)
				if err != nil {
					return err
				}
				cfg[k] = v
			}
			if *partitions == 0 || *partitions < -1 || *rf == 0 || *rf < -1 || *rf > 32767 {
				return usagef("--partitions and --replication-factor must be positive (or -1 for the broker default)")
			}
			var ts []admin.NewTopic
			for _, name := range args {
				ts = append(ts, admin.NewTopic{Name: name, Partitions: int32(*partitions), ReplicationFactor: int16(*rf), Configs: cfg})
			}
			ctx, cancel, err := s.op()
			if err != nil {
				return err
			}
			defer cancel()
			res, err := s.adm.CreateTopics(ctx, ts, admin.TopicOptions{ValidateOnly: *validate, WaitVisible: !*validate})
			if err != nil && !errors.Is(err, admin.ErrVisibilityTimeout) {
				return err
			}
			var errs []string
			for _, r := range res {
				switch {
				case r.Err == nil:
					verb := "created"
					if *validate {
						verb = "valid:"
					}
					fmt.Fprintf(io.stdout, "%s topic %s (%d partitions, replication factor %d)\n", verb, r.Name, r.Partitions, r.ReplicationFactor)
				case *ifNotExists && errors.Is(r.Err, wire.ErrTopicAlreadyExists):
					fmt.Fprintf(io.stdout, "topic %s already exists\n", r.Name)
				default:
					errs = append(errs, fmt.Sprintf("topic %s: %v", r.Name, r.Err))
				}
			}
			if err != nil && len(errs) == 0 {
				return err
			}
			return firstErr(errs)
		}
	}, atLeastOne("TOPIC")),
}

var topicListCmd = &command{
	name:    "list",
	summary: "list topics with their partition counts and IDs",
	flags: leaf(func(fs *flag.FlagSet) func(*ioctx, *session, []string) error {
		internal := fs.Bool("internal", false, "include internal topics (__consumer_offsets, ...)")
		namesOnly := fs.Bool("names", false, "print only the names, one per line")
		return func(io *ioctx, s *session, _ []string) error {
			ctx, cancel, err := s.op()
			if err != nil {
				return err
			}
			defer cancel()
			ts, err := s.adm.ListTopics(ctx, *internal)
			if err != nil {
				return err
			}
			if *namesOnly {
				for _, t := range ts {
					fmt.Fprintln(io.stdout, t.Name)
				}
				return nil
			}
			tw := tabwriter.NewWriter(io.stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "TOPIC\tPARTITIONS\tID")
			for _, t := range ts {
				fmt.Fprintf(tw, "%s\t%d\t%s\n", t.Name, t.Partitions, t.ID)
			}
			return tw.Flush()
		}
	}, noArgs),
}

var topicDescribeCmd = &command{
	name:    "describe",
	usage:   "TOPIC...",
	summary: "show partitions (leader, replicas, ISR, offsets) and configs set on the topic",
	flags: leaf(func(fs *flag.FlagSet) func(*ioctx, *session, []string) error {
		allConfigs := fs.Bool("all-configs", false, "show every config, defaults included (default: only those set on the topic)")
		return func(io *ioctx, s *session, args []string) error {
			ctx, cancel, err := s.op()
			if err != nil {
				return err
			}
			defer cancel()
			ds, err := s.adm.DescribeTopics(ctx, args)
			if err != nil {
				return err
			}
			var errs []string
			for _, d := range ds {
				if d.Err != nil {
					errs = append(errs, fmt.Sprintf("topic %s: %v", d.Name, d.Err))
					continue
				}
				if err := describeTopic(io, s, d, *allConfigs); err != nil {
					return err
				}
			}
			return firstErr(errs)
		}
	}, atLeastOne("TOPIC")),
}

func describeTopic(io *ioctx, s *session, d admin.TopicDescription, allConfigs bool) error {
	ctx, cancel, err := s.op()
	if err != nil {
		return err
	}
	defer cancel()
	var qs []admin.OffsetQuery
	for _, p := range d.Partitions {
		tp := gk.TopicPartition{Topic: d.Name, Partition: p.Partition}
		qs = append(qs, admin.OffsetQuery{TopicPartition: tp, Spec: admin.OffsetEarliest}, admin.OffsetQuery{TopicPartition: tp, Spec: admin.OffsetLatest})
	}
	offs, err := s.adm.ListOffsets(ctx, qs, admin.ListOffsetsOptions{})
	if err != nil {
		return err
	}
	cfgs, err := s.adm.DescribeConfigs(ctx, []admin.ConfigResource{{Type: admin.ResourceTopic, Name: d.Name}})
	if err != nil {
		return err
	}
	fmt.Fprintf(io.stdout, "topic %s  id %s  partitions %d\n", d.Name, d.ID, len(d.Partitions))
	tw := tabwriter.NewWriter(io.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "PARTITION\tLEADER\tEPOCH\tREPLICAS\tISR\tSTART\tEND")
	for i, p := range d.Partitions {
		start, end := offsetText(offs[2*i]), offsetText(offs[2*i+1])
		fmt.Fprintf(tw, "%d\t%d\t%d\t%s\t%s\t%s\t%s\n", p.Partition, p.Leader, p.LeaderEpoch, ints(p.Replicas), ints(p.ISR), start, end)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if cfgs[0].Err != nil {
		return fmt.Errorf("topic %s configs: %w", d.Name, cfgs[0].Err)
	}
	fmt.Fprintln(io.stdout, "configs:")
	for _, e := range cfgs[0].Entries {
		if !allConfigs && e.Source != admin.SourceDynamicTopic {
			continue
		}
		v := "(null)"
		switch {
		case e.Sensitive:
			v = "(sensitive)"
		case e.Value != nil:
			v = *e.Value
		}
		fmt.Fprintf(io.stdout, "  %s=%s\n", e.Name, v)
	}
	return nil
}

func offsetText(o admin.ListedOffset) string {
	if o.Err != nil {
		return "?"
	}
	return fmt.Sprint(o.Offset)
}

func ints(xs []int32) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ",")
}

var topicAlterCmd = &command{
	name:    "alter-configs",
	usage:   "TOPIC",
	summary: "set or delete topic configs (IncrementalAlterConfigs)",
	flags: leaf(func(fs *flag.FlagSet) func(*ioctx, *session, []string) error {
		var set, del multiFlag
		fs.Var(&set, "set", "set config `key=value` (repeatable)")
		fs.Var(&del, "delete", "delete config `key`, back to the default (repeatable)")
		validate := fs.Bool("validate-only", false, "check the changes without applying them")
		return func(io *ioctx, s *session, args []string) error {
			var changes []admin.ConfigChange
			for _, kv := range set {
				k, v, err := parseKV("--set", kv)
				if err != nil {
					return err
				}
				changes = append(changes, admin.ConfigChange{Name: k, Op: admin.OpSet, Value: v})
			}
			for _, k := range del {
				changes = append(changes, admin.ConfigChange{Name: k, Op: admin.OpDelete})
			}
			if len(changes) == 0 {
				return usagef("nothing to change: give --set key=value or --delete key")
			}
			ctx, cancel, err := s.op()
			if err != nil {
				return err
			}
			defer cancel()
			res, err := s.adm.IncrementalAlterConfigs(ctx, []admin.AlterConfigsResource{{Type: admin.ResourceTopic, Name: args[0], Changes: changes}},
				admin.AlterConfigsOptions{ValidateOnly: *validate})
			if err != nil {
				return err
			}
			if res[0].Err != nil {
				return fmt.Errorf("topic %s: %w", args[0], res[0].Err)
			}
			fmt.Fprintf(io.stdout, "altered configs of topic %s (%d changes)\n", args[0], len(changes))
			return nil
		}
	}, exactlyOne("TOPIC")),
}

var topicDeleteCmd = &command{
	name:    "delete",
	usage:   "TOPIC...",
	summary: "delete topics and wait until no broker lists them",
	flags: leaf(func(fs *flag.FlagSet) func(*ioctx, *session, []string) error {
		ifExists := fs.Bool("if-exists", false, "succeed when the topic does not exist")
		return func(io *ioctx, s *session, args []string) error {
			refs := make([]admin.TopicRef, len(args))
			for i, a := range args {
				refs[i] = admin.TopicRef{Name: a}
			}
			ctx, cancel, err := s.op()
			if err != nil {
				return err
			}
			defer cancel()
			res, err := s.adm.DeleteTopics(ctx, refs, admin.TopicOptions{WaitVisible: true})
			if err != nil && !errors.Is(err, admin.ErrVisibilityTimeout) {
				return err
			}
			var errs []string
			for _, r := range res {
				switch {
				case r.Err == nil:
					fmt.Fprintf(io.stdout, "deleted topic %s\n", r.Name)
				case *ifExists && errors.Is(r.Err, wire.ErrUnknownTopicOrPartition):
					fmt.Fprintf(io.stdout, "topic %s does not exist\n", r.Name)
				default:
					errs = append(errs, fmt.Sprintf("topic %s: %v", r.Name, r.Err))
				}
			}
			if err != nil && len(errs) == 0 {
				return err
			}
			return firstErr(errs)
		}
	}, atLeastOne("TOPIC")),
}
