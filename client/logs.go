package client

import (
	"context"
	"errors"
	"log/slog"
)

// Log lines of package client (all start "gregor: "; none carries
// credentials: SASL passwords and tokens are never passed to the logger).
// Levels keep Info quiet in steady state:
//
//   - Warn "gregor: connection lost": an open connection failed (broker
//     gone, reset, protocol violation, stall) with requests outstanding;
//     attributes addr, broker, lane, cause, outstanding. Without requests
//     outstanding, or for an idle or client close, the line is Debug
//     "gregor: connection closed".
//   - Info "gregor: retrying": a request failed where it is safe to retry;
//     attributes api, broker, try, backoff_max, reason.
//   - Info "gregor: leader moved": metadata shows a new leader of a
//     tracked partition; attributes topic, partition, from, to, epoch.
//   - Info "gregor: brokers changed": metadata names other brokers;
//     attributes added, removed.
//   - Info "gregor: rebootstrapping"; Debug "gregor: connected",
//     "gregor: ApiVersions fallback", "gregor: re-authenticated".
//   - Debug "gregor: telemetry: ..." (KIP-714 metrics push): a
//     GetTelemetrySubscriptions or PushTelemetry that failed or was
//     refused (attributes broker, err), a payload not encoded or above the
//     broker's TelemetryMaxBytes.
//
// Every call site checks Logger.Enabled first, so a disabled level formats
// and allocates nothing.

// Logger returns the client's logger (Config.Logger, or one that discards),
// for the packages built on the client to log through.
func (c *Client) Logger() *slog.Logger { return c.cfg.Logger }

// logEnabled reports whether the client's logger takes level l.
func (c *Client) logEnabled(l slog.Level) bool {
	return c.cfg.Logger.Enabled(context.Background(), l)
}

// logConnClosed logs the close of cn with cause (outstanding requests
// failed with it). A close by Close is not logged.
func (cn *conn) logConnClosed(cause error, outstanding int) {
	if errors.Is(cause, ErrClosed) {
		return
	}
	lvl, msg := slog.LevelDebug, "gregor: connection closed"
	if outstanding > 0 {
		lvl, msg = slog.LevelWarn, "gregor: connection lost"
	}
	if !cn.cl.logEnabled(lvl) {
		return
	}
	cn.cl.cfg.Logger.Log(context.Background(), lvl, msg, "addr", cn.addr, "broker", cn.broker, "lane", cn.lane.String(), "cause", cause, "outstanding", outstanding)
}

// logRetry logs a retry of api to broker after err (try counts from 0).
func (c *Client) logRetry(api string, broker int32, try int, err error) {
	if !c.logEnabled(slog.LevelInfo) {
		return
	}
	c.cfg.Logger.Info("gregor: retrying", "api", api, "broker", broker, "try", try+1, "reason", err)
}

// logMetadataChanges logs leaders that moved and brokers that came or went
// between the snapshots old and md (old may be nil: nothing is logged).
func (c *Client) logMetadataChanges(old, md *Metadata) {
	if old == nil || md == nil || !c.logEnabled(slog.LevelInfo) {
		return
	}
	for name, t := range md.Topics {
		ot := old.Topics[name]
		if ot == nil {
			continue
		}
		for _, p := range t.Partitions {
			if int(p.Partition) >= len(ot.Partitions) || ot.Partitions[p.Partition].Partition != p.Partition {
				continue
			}
			op := ot.Partitions[p.Partition]
			if op.Leader != p.Leader {
				c.cfg.Logger.Info("gregor: leader moved", "topic", name, "partition", p.Partition, "from", op.Leader, "to", p.Leader, "epoch", p.LeaderEpoch)
			}
		}
	}
	var added, removed []int32
	known := make(map[int32]bool, len(old.Brokers))
	for _, b := range old.Brokers {
		known[b.NodeID] = true
	}
	for _, b := range md.Brokers {
		if !known[b.NodeID] {
			added = append(added, b.NodeID)
		}
		delete(known, b.NodeID)
	}
	for id := range known {
		removed = append(removed, id)
	}
	if len(added)+len(removed) > 0 {
		c.cfg.Logger.Info("gregor: brokers changed", "added", added, "removed", removed, "brokers", len(md.Brokers))
	}
}
