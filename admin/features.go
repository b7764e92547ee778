package admin

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

// FeatureRange is a range of feature levels.
type FeatureRange struct {
	// Min is the lowest level.
	Min int16
	// Max is the highest level.
	Max int16
}

// FeatureMetadata is what one broker reports of the cluster's features
// (KIP-584), from its ApiVersions response.
type FeatureMetadata struct {
	// Broker is the broker that answered.
	Broker int32
	// Finalized maps each finalized feature to its finalized level range
	// (Max is the level in force, e.g. metadata.version's).
	Finalized map[string]FeatureRange
	// FinalizedEpoch is the epoch of Finalized, -1 when unknown.
	FinalizedEpoch int64
	// Supported maps each feature the broker supports to the levels it
	// supports.
	Supported map[string]FeatureRange
}

// DescribeFeatures reads the finalized and supported feature levels of a
// broker (ApiVersions v3+ feature fields; broker client.AnyBroker for any).
func (a *Admin) DescribeFeatures(ctx context.Context, broker int32) (*FeatureMetadata, error) {
	req := &wire.ApiVersionsRequest{ClientSoftwareName: "gregor", ClientSoftwareVersion: "admin", NodeID: -1}
	for try := 0; ; try++ {
		resp, err := a.cl.Request(ctx, broker, req)
		if err == nil {
			r := resp.(*wire.ApiVersionsResponse)
			if err = codeErr(r.ErrorCode, nil); err == nil {
				fm := &FeatureMetadata{Broker: broker, FinalizedEpoch: r.FinalizedFeaturesEpoch,
					Finalized: map[string]FeatureRange{}, Supported: map[string]FeatureRange{}}
				for _, f := range r.FinalizedFeatures {
					fm.Finalized[f.Name] = FeatureRange{f.MinVersionLevel, f.MaxVersionLevel}
				}
				for _, f := range r.SupportedFeatures {
					fm.Supported[f.Name] = FeatureRange{f.MinVersion, f.MaxVersion}
				}
				return fm, nil
			}
		}
		if !transient(ctx, err, true) {
			return nil, err
		}
		if !a.wait(ctx, try) {
			return nil, gaveUp(ctx, err)
		}
	}
}

// UpgradeType says how UpdateFeatures may change a level (KIP-778).
type UpgradeType int8

// The upgrade types.
const (
	// FeatureUpgrade only raises levels.
	FeatureUpgrade UpgradeType = 1
	// FeatureSafeDowngrade may lower a level when no metadata is lost.
	FeatureSafeDowngrade UpgradeType = 2
	// FeatureUnsafeDowngrade may lower a level losing metadata.
	FeatureUnsafeDowngrade UpgradeType = 3
)

// FeatureUpdate sets one feature's finalized level.
type FeatureUpdate struct {
	// Feature is the feature name (e.g. "transaction.version").
	Feature string
	// Level is the new maximum level; 0 (with a downgrade type) removes
	// the feature's finalization.
	Level int16
	// Type is FeatureUpgrade (the default when zero) or a downgrade.
	Type UpgradeType
}

// FeatureResult is the outcome of one FeatureUpdate.
type FeatureResult struct {
	// Feature is the feature name.
	Feature string
	// Err is nil, or the Kafka error (wire.ErrInvalidUpdateVersion for a
	// level the brokers do not support or a downgrade without the type),
	// possibly in *BrokerError.
	Err error
}

// UpdateFeatures changes finalized feature levels (UpdateFeatures v0-2,
// any broker, forwarded to the KRaft controller) and returns one result per
// update in request order; validateOnly checks without changing anything
// (v1+: a broker with v0 only is not asked, the error is
// gregor.ErrUnsupportedFeature, as it would perform the updates).
// Kafka 4.0+ applies a batch all or nothing: one invalid update fails every
// update of the batch with its error (Kafka 3.x answers each update alone).
// The change reaches every broker asynchronously: WaitFeatures waits until
// each broker's ApiVersions shows it. The batch is rejected with a
// *BatchError before sending for an empty or repeated feature, a negative
// level or an unknown type.
func (a *Admin) UpdateFeatures(ctx context.Context, updates []FeatureUpdate, validateOnly bool) ([]FeatureResult, error) {
	for i, u := range updates {
		switch {
		case u.Feature == "":
			return nil, invalid(i, "empty feature name")
		case u.Level < 0:
			return nil, invalid(i, "negative level %d", u.Level)
		case u.Type < 0 || u.Type > FeatureUnsafeDowngrade:
			return nil, invalid(i, "unknown upgrade type %d", u.Type)
		}
	}
	if err := checkUnique(len(updates), func(i int) string { return updates[i].Feature }); err != nil {
		return nil, err
	}
	out := make([]FeatureResult, len(updates))
	for i, u := range updates {
		out[i].Feature = u.Feature
	}
	set := func(i int, err error) { out[i].Err = err }
	opErr := a.runAnyBroker(ctx, anyBrokerPlan{
		resources: len(updates),
		send: func(ctx context.Context, idx []int) (map[int]error, error) {
			req := &wire.UpdateFeaturesRequest{TimeoutMs: timeoutMs(ctx, 30*time.Second), ValidateOnly: validateOnly}
			for _, i := range idx {
				u := updates[i]
				typ := u.Type
				if typ == 0 {
					typ = FeatureUpgrade
				}
				req.FeatureUpdates = append(req.FeatureUpdates, wire.UpdateFeaturesFeatureUpdateKey{Feature: u.Feature, MaxVersionLevel: u.Level,
					AllowDowngrade: typ != FeatureUpgrade, UpgradeType: int8(typ)})
			}
			resp, err := a.cl.Request(ctx, client.AnyBroker, req)
			if err != nil {
				return nil, err
			}
			r := resp.(*wire.UpdateFeaturesResponse)
			top := codeErr(r.ErrorCode, r.ErrorMessage)
			return settle(idx, func(j int) error {
				if top != nil {
					return top
				}
				feature := updates[idx[j]].Feature
				res := answerFor(r.Results, func(x *wire.UpdateFeaturesUpdatableFeatureResult) bool { return x.Feature == feature })
				switch {
				case res != nil:
					return codeErr(res.ErrorCode, res.ErrorMessage)
				case len(r.Results) == 0:
					return nil // v2+ answers only the top-level error (KIP-1022)
				}
				return fmt.Errorf("admin: broker returned no result for feature %s", feature)
			}, set), nil
		},
		fail: set,
	})
	if opErr != nil {
		return nil, opErr
	}
	return out, nil
}

// WaitFeatures polls every broker's ApiVersions with backoff until each
// shows the finalized levels of want (level 0: the feature not finalized).
// It returns nil then; when ctx ends first, an error matching
// client.ErrTimeout naming a broker that disagrees.
func (a *Admin) WaitFeatures(ctx context.Context, want map[string]int16) error {
	names := make([]string, 0, len(want))
	for n := range want {
		names = append(names, n)
	}
	slices.Sort(names)
	for try := 0; ; try++ {
		err := a.featuresEverywhere(ctx, names, want)
		if err == nil {
			return nil
		}
		if !a.wait(ctx, try) {
			return gaveUp(ctx, err)
		}
	}
}

// featuresEverywhere checks want once against every broker.
func (a *Admin) featuresEverywhere(ctx context.Context, names []string, want map[string]int16) error {
	ids, err := a.brokerIDs(ctx)
	if err != nil {
		return err
	}
	for _, b := range ids {
		fm, err := a.DescribeFeatures(ctx, b)
		if err != nil {
			return fmt.Errorf("broker %d: %w", b, err)
		}
		for _, n := range names {
			if got := fm.Finalized[n].Max; got != want[n] {
				return fmt.Errorf("broker %d shows %s at level %d, want %d", b, n, got, want[n])
			}
		}
	}
	return nil
}
