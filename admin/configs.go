package admin

import (
	"context"
	"strconv"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

// ResourceType is the type of a config resource (Kafka's ConfigResource.Type).
type ResourceType int8

// Config resource types.
const (
	ResourceTopic  ResourceType = ResourceType(wire.ConfigResourceTopic)
	ResourceBroker ResourceType = ResourceType(wire.ConfigResourceBroker)
	ResourceGroup  ResourceType = ResourceType(wire.ConfigResourceGroup)
)

// ConfigResource names the configs to describe.
type ConfigResource struct {
	// Type is the config resource type.
	Type ResourceType
	// Name is the topic name, the broker ID in decimal ("" for the
	// cluster-wide broker defaults), or the group ID.
	Name string
	// Keys are the config keys to return; nil returns every key.
	Keys []string
}

// ConfigSource says where a config value comes from (Kafka's ConfigSource).
type ConfigSource int8

// Config sources.
const (
	SourceUnknown              ConfigSource = ConfigSource(wire.ConfigSourceUnknown)
	SourceDynamicTopic         ConfigSource = ConfigSource(wire.ConfigSourceDynamicTopic)
	SourceDynamicBroker        ConfigSource = ConfigSource(wire.ConfigSourceDynamicBroker)
	SourceDynamicDefaultBroker ConfigSource = ConfigSource(wire.ConfigSourceDynamicDefaultBroker)
	SourceStaticBroker         ConfigSource = ConfigSource(wire.ConfigSourceStaticBroker)
	SourceDefault              ConfigSource = ConfigSource(wire.ConfigSourceDefault)
	SourceGroup                ConfigSource = ConfigSource(wire.ConfigSourceGroup)
)

// ConfigEntry is one config of a resource.
type ConfigEntry struct {
	// Name is the config key.
	Name string
	// Value is the value, or nil when it is unset or Sensitive: a
	// sensitive value is never exposed, whatever the broker sent.
	Value *string
	// Source is where the value comes from (a ConfigSource constant).
	Source ConfigSource
	// ReadOnly reports a config that cannot be changed dynamically.
	ReadOnly bool
	// Sensitive marks a secret; its Value is always nil.
	Sensitive bool
}

// ResourceConfig is the outcome for one resource of DescribeConfigs.
type ResourceConfig struct {
	// Resource is the resource as requested.
	Resource ConfigResource
	// Entries are the configs, in the broker's order.
	Entries []ConfigEntry
	// Err is nil, wire.ErrUnknownTopicOrPartition for a missing topic,
	// another Kafka error (possibly in *BrokerError), or the failure that
	// ended the retries.
	Err error
}

// Entry returns the entry named name and whether it is present.
func (rc ResourceConfig) Entry(name string) (ConfigEntry, bool) {
	for _, e := range rc.Entries {
		if e.Name == name {
			return e, true
		}
	}
	return ConfigEntry{}, false
}

// configRoute sends broker resources with a broker ID to that broker and
// everything else to any broker.
func configRoute(typ ResourceType, name string) int32 {
	if typ == ResourceBroker || typ == ResourceType(wire.ConfigResourceBrokerLogger) {
		if id, err := strconv.ParseInt(name, 10, 32); err == nil {
			return int32(id)
		}
	}
	return client.AnyBroker
}

// DescribeConfigs reads configs (DescribeConfigs v1-4) and returns one
// result per resource in request order. Broker resources go to the named
// broker, others to any broker; retriable errors are retried within ctx.
func (a *Admin) DescribeConfigs(ctx context.Context, resources []ConfigResource) ([]ResourceConfig, error) {
	out := make([]ResourceConfig, len(resources))
	for i, r := range resources {
		out[i].Resource = r
	}
	route := func(_ context.Context, i int) (int32, error) {
		return configRoute(resources[i].Type, resources[i].Name), nil
	}
	send := func(ctx context.Context, broker int32, idx []int) (map[int]error, error) {
		req := &wire.DescribeConfigsRequest{}
		for _, i := range idx {
			req.Resources = append(req.Resources, wire.DescribeConfigsResource{
				ResourceType: int8(resources[i].Type), ResourceName: resources[i].Name, ConfigurationKeys: resources[i].Keys})
		}
		resp, err := a.cl.Request(ctx, broker, req)
		if err != nil {
			return nil, err
		}
		retry := map[int]error{}
		results := resp.(*wire.DescribeConfigsResponse).Results
		for _, i := range idx {
			r := answerFor(results, func(r *wire.DescribeConfigsResult) bool {
				return r.ResourceType == int8(resources[i].Type) && r.ResourceName == resources[i].Name
			})
			if r == nil {
				out[i].Err = wire.ErrUnknownServerError
				continue
			}
			if err := codeErr(r.ErrorCode, r.ErrorMessage); err != nil {
				if retriableResource(err) {
					retry[i] = err
				} else {
					out[i].Err = err
				}
				continue
			}
			out[i].Entries = make([]ConfigEntry, 0, len(r.Configs))
			for _, c := range r.Configs {
				e := ConfigEntry{Name: c.Name, Value: c.Value, Source: ConfigSource(c.ConfigSource), ReadOnly: c.ReadOnly, Sensitive: c.IsSensitive}
				if e.Sensitive {
					e.Value = nil
				}
				out[i].Entries = append(out[i].Entries, e)
			}
		}
		return retry, nil
	}
	a.runPlan(ctx, resourcePlan{
		resources:  len(resources),
		idempotent: true,
		route:      route,
		send:       send,
		fail:       func(i int, err error) { out[i].Err = err },
	})
	return out, nil
}

// ConfigOp is an incremental config operation (KIP-339).
type ConfigOp int8

// Incremental config operations.
const (
	OpSet      ConfigOp = ConfigOp(wire.ConfigOpSet)
	OpDelete   ConfigOp = ConfigOp(wire.ConfigOpDelete)
	OpAppend   ConfigOp = ConfigOp(wire.ConfigOpAppend)
	OpSubtract ConfigOp = ConfigOp(wire.ConfigOpSubtract)
)

// ConfigChange is one incremental change of one key.
type ConfigChange struct {
	// Name is the config key.
	Name string
	// Op is the operation.
	Op ConfigOp
	// Value is the value to set, append or subtract (ignored for OpDelete).
	Value string
}

// AlterConfigsResource is the changes for one resource.
type AlterConfigsResource struct {
	// Type is the config resource type.
	Type ResourceType
	// Name is the resource name (topic, broker ID or group ID).
	Name string
	// Changes are the key changes, applied together.
	Changes []ConfigChange
}

// AlterConfigsResult is the outcome for one resource.
type AlterConfigsResult struct {
	// Type is the config resource type.
	Type ResourceType
	// Name is the resource name (topic, broker ID or group ID).
	Name string
	// Err is nil, a Kafka error such as wire.ErrInvalidConfig or
	// wire.ErrUnknownTopicOrPartition (possibly in *BrokerError), or the
	// failure that ended the retries.
	Err error
}

// AlterConfigsOptions tunes IncrementalAlterConfigs.
type AlterConfigsOptions struct {
	// ValidateOnly checks the changes, reporting the errors a real request
	// would get, without applying them.
	ValidateOnly bool
}

// IncrementalAlterConfigs changes individual config keys
// (IncrementalAlterConfigs v0-1) and returns one result per resource in
// request order. Only the named keys change. A request that may have
// reached the broker is not resent after a transport failure when it holds
// APPEND or SUBTRACT changes (they are not idempotent).
func (a *Admin) IncrementalAlterConfigs(ctx context.Context, resources []AlterConfigsResource, opts AlterConfigsOptions) ([]AlterConfigsResult, error) {
	out := make([]AlterConfigsResult, len(resources))
	idempotent := true
	for i, r := range resources {
		out[i] = AlterConfigsResult{Type: r.Type, Name: r.Name}
		for _, c := range r.Changes {
			if c.Op == OpAppend || c.Op == OpSubtract {
				idempotent = false
			}
		}
	}
	route := func(_ context.Context, i int) (int32, error) {
		return configRoute(resources[i].Type, resources[i].Name), nil
	}
	send := func(ctx context.Context, broker int32, idx []int) (map[int]error, error) {
		req := &wire.IncrementalAlterConfigsRequest{ValidateOnly: opts.ValidateOnly}
		for _, i := range idx {
			res := wire.IncrementalAlterConfigsResource{ResourceType: int8(resources[i].Type), ResourceName: resources[i].Name}
			for _, c := range resources[i].Changes {
				cc := wire.IncrementalAlterConfigsConfig{Name: c.Name, ConfigOperation: int8(c.Op)}
				if c.Op != OpDelete {
					v := c.Value
					cc.Value = &v
				}
				res.Configs = append(res.Configs, cc)
			}
			req.Resources = append(req.Resources, res)
		}
		resp, err := a.cl.Request(ctx, broker, req)
		if err != nil {
			return nil, err
		}
		retry := map[int]error{}
		rs := resp.(*wire.IncrementalAlterConfigsResponse).Responses
		for _, i := range idx {
			r := answerFor(rs, func(r *wire.IncrementalAlterConfigsResult) bool {
				return r.ResourceType == int8(resources[i].Type) && r.ResourceName == resources[i].Name
			})
			if r == nil {
				out[i].Err = wire.ErrUnknownServerError
				continue
			}
			if err := codeErr(r.ErrorCode, r.ErrorMessage); err != nil && retriableResource(err) {
				retry[i] = err
			} else {
				out[i].Err = err
			}
		}
		return retry, nil
	}
	a.runPlan(ctx, resourcePlan{
		resources:  len(resources),
		idempotent: idempotent,
		route:      route,
		send:       send,
		fail:       func(i int, err error) { out[i].Err = err },
	})
	return out, nil
}
