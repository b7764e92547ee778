package admin

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

// The quota entity types Kafka knows (KIP-546).
const (
	QuotaUser     = "user"
	QuotaClientID = "client-id"
	QuotaIP       = "ip"
)

// QuotaEntityPart names one part of a quota entity: its type and name,
// nil for the type's default entity (e.g. every user without a quota of
// its own).
type QuotaEntityPart struct {
	// Type is QuotaUser, QuotaClientID or QuotaIP.
	Type string
	// Name is the entity name, nil for the default entity.
	Name *string
}

// QuotaEntity is a quota's entity: a user, a client ID, a user and a client
// ID, or an IP.
type QuotaEntity []QuotaEntityPart

// String renders the entity as "user=alice,client-id=<default>".
func (e QuotaEntity) String() string {
	parts := make([]string, len(e))
	for i, p := range e {
		n := "<default>"
		if p.Name != nil {
			n = *p.Name
		}
		parts[i] = p.Type + "=" + n
	}
	slices.Sort(parts)
	return strings.Join(parts, ",")
}

// QuotaMatch is one component of a DescribeClientQuotas filter.
type QuotaMatch struct {
	// Type is the entity type the component is about.
	Type string
	// Kind is QuotaMatchExact (Name), QuotaMatchDefault (the default
	// entity) or QuotaMatchAny (any entity of Type, the default included).
	Kind QuotaMatchKind
	// Name is the entity name for QuotaMatchExact.
	Name string
}

// QuotaMatchKind is DescribeClientQuotas' MatchType.
type QuotaMatchKind int8

// The match kinds.
const (
	QuotaMatchExact   QuotaMatchKind = 0
	QuotaMatchDefault QuotaMatchKind = 1
	QuotaMatchAny     QuotaMatchKind = 2
)

// QuotaValues are an entity's quotas (e.g. producer_byte_rate ->
// 1048576).
type QuotaValues struct {
	// Entity is the entity.
	Entity QuotaEntity
	// Values maps quota names to values.
	Values map[string]float64
}

// DescribeClientQuotas lists the quotas of the entities matching every
// component of the filter (DescribeClientQuotas v0-1, any broker); strict
// excludes entities with types the filter does not name. The result is
// sorted by entity. The error is the request-wide failure, or a
// *BatchError for an invalid filter (nothing sent).
func (a *Admin) DescribeClientQuotas(ctx context.Context, filter []QuotaMatch, strict bool) ([]QuotaValues, error) {
	for i, m := range filter {
		if !knownQuotaType(m.Type) {
			return nil, invalid(i, "unknown quota entity type %q", m.Type)
		}
		if m.Kind < QuotaMatchExact || m.Kind > QuotaMatchAny {
			return nil, invalid(i, "unknown match kind %d", m.Kind)
		}
	}
	if err := checkUnique(len(filter), func(i int) string { return filter[i].Type }); err != nil {
		return nil, err
	}
	req := &wire.DescribeClientQuotasRequest{Strict: strict}
	for _, m := range filter {
		c := wire.DescribeClientQuotasComponentData{EntityType: m.Type, MatchType: int8(m.Kind)}
		if m.Kind == QuotaMatchExact {
			c.Match = &m.Name
		}
		req.Components = append(req.Components, c)
	}
	var out []QuotaValues
	err := a.anyBrokerOnce(ctx, req, func(resp wire.Response) error {
		r := resp.(*wire.DescribeClientQuotasResponse)
		if err := codeErr(r.ErrorCode, r.ErrorMessage); err != nil {
			return err
		}
		out = out[:0]
		for _, e := range r.Entries {
			q := QuotaValues{Values: map[string]float64{}}
			for _, p := range e.Entity {
				q.Entity = append(q.Entity, QuotaEntityPart{p.EntityType, p.EntityName})
			}
			for _, v := range e.Values {
				q.Values[v.Key] = v.Value
			}
			out = append(out, q)
		}
		return nil
	})
	slices.SortFunc(out, func(x, y QuotaValues) int { return compareStrings(x.Entity.String(), y.Entity.String()) })
	return out, err
}

// knownQuotaType reports whether t is an entity type Kafka knows.
func knownQuotaType(t string) bool { return t == QuotaUser || t == QuotaClientID || t == QuotaIP }

// QuotaAlteration sets and removes quotas of one entity.
type QuotaAlteration struct {
	// Entity is the entity.
	Entity QuotaEntity
	// Set maps quota names to new values.
	Set map[string]float64
	// Remove lists quota names to remove.
	Remove []string
}

// QuotaAlterationResult is the outcome of one QuotaAlteration.
type QuotaAlterationResult struct {
	// Entity is the entity.
	Entity QuotaEntity
	// Err is nil or the Kafka error (wire.ErrInvalidRequest for an unknown
	// quota name or an invalid entity), possibly in *BrokerError.
	Err error
}

// AlterClientQuotas sets and removes client quotas (AlterClientQuotas v0-1,
// any broker, forwarded to the KRaft controller) and returns one result per
// alteration in request order; validateOnly checks without changing
// anything. Quotas apply on every broker shortly after (DescribeClientQuotas
// shows them). The batch is rejected with a *BatchError before sending for
// an empty entity, an unknown or repeated entity type, a negative value, a
// quota both set and removed, or an entity twice.
func (a *Admin) AlterClientQuotas(ctx context.Context, alts []QuotaAlteration, validateOnly bool) ([]QuotaAlterationResult, error) {
	for i, alt := range alts {
		if len(alt.Entity) == 0 {
			return nil, invalid(i, "empty entity")
		}
		seen := map[string]bool{}
		for _, p := range alt.Entity {
			if !knownQuotaType(p.Type) || seen[p.Type] {
				return nil, invalid(i, "unknown or repeated entity type %q", p.Type)
			}
			seen[p.Type] = true
		}
		for k, v := range alt.Set {
			if v < 0 {
				return nil, invalid(i, "negative quota %s=%v", k, v)
			}
			if slices.Contains(alt.Remove, k) {
				return nil, invalid(i, "quota %s both set and removed", k)
			}
		}
	}
	if err := checkUnique(len(alts), func(i int) string { return alts[i].Entity.String() }); err != nil {
		return nil, err
	}
	out := make([]QuotaAlterationResult, len(alts))
	for i, alt := range alts {
		out[i].Entity = alt.Entity
	}
	set := func(i int, err error) { out[i].Err = err }
	opErr := a.runAnyBroker(ctx, anyBrokerPlan{
		resources: len(alts),
		send: func(ctx context.Context, idx []int) (map[int]error, error) {
			req := &wire.AlterClientQuotasRequest{ValidateOnly: validateOnly}
			for _, i := range idx {
				e := wire.AlterClientQuotasEntryData{}
				for _, p := range alts[i].Entity {
					e.Entity = append(e.Entity, wire.AlterClientQuotasEntityData{EntityType: p.Type, EntityName: p.Name})
				}
				keys := make([]string, 0, len(alts[i].Set))
				for k := range alts[i].Set {
					keys = append(keys, k)
				}
				slices.Sort(keys)
				for _, k := range keys {
					e.Ops = append(e.Ops, wire.AlterClientQuotasOpData{Key: k, Value: alts[i].Set[k]})
				}
				for _, k := range alts[i].Remove {
					e.Ops = append(e.Ops, wire.AlterClientQuotasOpData{Key: k, Remove: true})
				}
				req.Entries = append(req.Entries, e)
			}
			resp, err := a.cl.Request(ctx, client.AnyBroker, req)
			if err != nil {
				return nil, err
			}
			byEntity := map[string]error{}
			for _, e := range resp.(*wire.AlterClientQuotasResponse).Entries {
				var ent QuotaEntity
				for _, p := range e.Entity {
					ent = append(ent, QuotaEntityPart{p.EntityType, p.EntityName})
				}
				byEntity[ent.String()] = codeErr(e.ErrorCode, e.ErrorMessage)
			}
			return settle(idx, func(j int) error {
				entity := alts[idx[j]].Entity
				err, ok := byEntity[entity.String()]
				if !ok {
					return fmt.Errorf("admin: broker returned no result for entity %s", entity)
				}
				return err
			}, set), nil
		},
		idempotent: true,
		fail:       set,
	})
	if opErr != nil {
		return nil, opErr
	}
	return out, nil
}
