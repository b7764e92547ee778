package main

import (
	"flag"
	"fmt"
	"sort"
	"text/tabwriter"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

var clusterCmd = &command{
	name:    "cluster",
	summary: "describe the cluster and its feature levels",
	subs:    []*command{clusterDescribeCmd, clusterFeaturesCmd},
}

var clusterDescribeCmd = &command{
	name:    "describe",
	summary: "show the cluster ID, the controller and the brokers",
	flags: leaf(func(fs *flag.FlagSet) func(*ioctx, *session, []string) error {
		return func(io *ioctx, s *session, _ []string) error {
			ctx, cancel, err := s.op()
			if err != nil {
				return err
			}
			defer cancel()
			d, err := s.adm.DescribeCluster(ctx)
			if err != nil {
				return err
			}
			fmt.Fprintf(io.stdout, "cluster %s  controller %d  brokers %d\n", d.ClusterID, d.ControllerID, len(d.Brokers))
			tw := tabwriter.NewWriter(io.stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "BROKER\tHOST\tPORT\tRACK")
			for _, b := range d.Brokers {
				rack := "-"
				if b.Rack != nil {
					rack = *b.Rack
				}
				fmt.Fprintf(tw, "%d\t%s\t%d\t%s\n", b.ID, b.Host, b.Port, rack)
			}
			return tw.Flush()
		}
	}, noArgs),
}

var clusterFeaturesCmd = &command{
	name:    "features",
	summary: "show the finalized feature levels and what the answering broker supports (ApiVersions)",
	flags: leaf(func(fs *flag.FlagSet) func(*ioctx, *session, []string) error {
		return func(io *ioctx, s *session, _ []string) error {
			ctx, cancel, err := s.op()
			if err != nil {
				return err
			}
			defer cancel()
			resp, err := s.cl.Request(ctx, client.AnyBroker, &wire.ApiVersionsRequest{ClientSoftwareName: "gregor", ClientSoftwareVersion: "cli", NodeID: -1})
			if err != nil {
				return err
			}
			av, ok := resp.(*wire.ApiVersionsResponse)
			if !ok {
				return fmt.Errorf("unexpected response %T to ApiVersions", resp)
			}
			supported := map[string]wire.ApiVersionsSupportedFeature{}
			names := map[string]bool{}
			for _, f := range av.SupportedFeatures {
				supported[f.Name] = f
				names[f.Name] = true
			}
			finalized := map[string]int16{}
			for _, f := range av.FinalizedFeatures {
				finalized[f.Name] = f.MaxVersionLevel
				names[f.Name] = true
			}
			sorted := make([]string, 0, len(names))
			for n := range names {
				sorted = append(sorted, n)
			}
			sort.Strings(sorted)
			fmt.Fprintf(io.stdout, "finalized features epoch %d\n", av.FinalizedFeaturesEpoch)
			tw := tabwriter.NewWriter(io.stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "FEATURE\tFINALIZED\tSUPPORTED")
			for _, n := range sorted {
				fin := "-"
				if l, ok := finalized[n]; ok {
					fin = fmt.Sprint(l)
				}
				sup := "-"
				if f, ok := supported[n]; ok {
					sup = fmt.Sprintf("%d-%d", f.MinVersion, f.MaxVersion)
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\n", n, fin, sup)
			}
			return tw.Flush()
		}
	}, noArgs),
}
