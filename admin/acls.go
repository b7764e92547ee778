package admin

import (
	"context"
	"fmt"
	"strings"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

// ACLResourceType is the kind of resource an ACL protects (Kafka's
// ResourceType).
type ACLResourceType int8

// The ACL resource types. ACLResourceAny matches every type in a filter.
const (
	ACLResourceAny             ACLResourceType = 1
	ACLResourceTopic           ACLResourceType = 2
	ACLResourceGroup           ACLResourceType = 3
	ACLResourceCluster         ACLResourceType = 4
	ACLResourceTransactionalID ACLResourceType = 5
	ACLResourceDelegationToken ACLResourceType = 6
	ACLResourceUser            ACLResourceType = 7
)

// PatternType says how an ACL's resource name matches (KIP-290).
type PatternType int8

// The pattern types. PatternAny and PatternMatch are for filters only:
// PatternMatch finds every ACL that applies to the named resource
// (literal, wildcard and prefixed ones).
const (
	PatternAny      PatternType = 1
	PatternMatch    PatternType = 2
	PatternLiteral  PatternType = 3
	PatternPrefixed PatternType = 4
)

// ACLOperation is the operation an ACL allows or denies (Kafka's
// AclOperation).
type ACLOperation int8

// The ACL operations. ACLOperationAny matches every operation in a filter.
const (
	ACLOperationAny             ACLOperation = 1
	ACLOperationAll             ACLOperation = 2
	ACLOperationRead            ACLOperation = 3
	ACLOperationWrite           ACLOperation = 4
	ACLOperationCreate          ACLOperation = 5
	ACLOperationDelete          ACLOperation = 6
	ACLOperationAlter           ACLOperation = 7
	ACLOperationDescribe        ACLOperation = 8
	ACLOperationClusterAction   ACLOperation = 9
	ACLOperationDescribeConfigs ACLOperation = 10
	ACLOperationAlterConfigs    ACLOperation = 11
	ACLOperationIdempotentWrite ACLOperation = 12
	ACLOperationCreateTokens    ACLOperation = 13
	ACLOperationDescribeTokens  ACLOperation = 14
	ACLOperationTwoPhaseCommit  ACLOperation = 15
)

// ACLPermission is whether an ACL allows or denies (Kafka's
// AclPermissionType).
type ACLPermission int8

// The permissions. ACLPermissionAny matches both in a filter.
const (
	ACLPermissionAny   ACLPermission = 1
	ACLPermissionDeny  ACLPermission = 2
	ACLPermissionAllow ACLPermission = 3
)

// ACL is one ACL binding: Principal may (or may not) do Operation on the
// resource from Host.
type ACL struct {
	// ResourceType is the kind of resource.
	ResourceType ACLResourceType
	// ResourceName is the resource's name ("*" for every resource of the
	// type; "kafka-cluster" for the cluster).
	ResourceName string
	// PatternType is PatternLiteral or PatternPrefixed.
	PatternType PatternType
	// Principal is "User:<name>" ("User:*" for everyone).
	Principal string
	// Host is the client host, "*" for any.
	Host string
	// Operation is the operation.
	Operation ACLOperation
	// Permission is ACLPermissionAllow or ACLPermissionDeny.
	Permission ACLPermission
}

// ACLFilter selects ACLs. A nil string matches any value; the enum fields'
// Any values match any.
type ACLFilter struct {
	// ResourceType is the kind of resource, or ACLResourceAny.
	ResourceType ACLResourceType
	// ResourceName is the resource name, nil for any.
	ResourceName *string
	// PatternType is the pattern type, PatternAny or PatternMatch.
	PatternType PatternType
	// Principal is the principal, nil for any.
	Principal *string
	// Host is the host, nil for any.
	Host *string
	// Operation is the operation, or ACLOperationAny.
	Operation ACLOperation
	// Permission is the permission, or ACLPermissionAny.
	Permission ACLPermission
}

// ACLResult is the outcome of creating one ACL.
type ACLResult struct {
	// ACL is the binding.
	ACL ACL
	// Err is nil, or the Kafka error (e.g. wire.ErrSecurityDisabled
	// without an authorizer, wire.ErrInvalidRequest), possibly in
	// *BrokerError.
	Err error
}

// checkACL returns what makes b an invalid binding to create, or "".
func checkACL(b ACL) string {
	switch {
	case b.ResourceType < ACLResourceTopic || b.ResourceType > ACLResourceUser:
		return fmt.Sprintf("resource type %d is not a concrete type", b.ResourceType)
	case b.ResourceName == "":
		return "empty resource name"
	case b.PatternType != PatternLiteral && b.PatternType != PatternPrefixed:
		return fmt.Sprintf("pattern type %d is not literal or prefixed", b.PatternType)
	case !strings.Contains(b.Principal, ":") || strings.HasSuffix(b.Principal, ":"):
		return fmt.Sprintf("principal %q is not of the form Type:name", b.Principal)
	case b.Host == "":
		return "empty host (\"*\" is any host)"
	case b.Operation < ACLOperationAll || b.Operation > ACLOperationTwoPhaseCommit:
		return fmt.Sprintf("operation %d is not a concrete operation", b.Operation)
	case b.Permission != ACLPermissionAllow && b.Permission != ACLPermissionDeny:
		return fmt.Sprintf("permission %d is not allow or deny", b.Permission)
	}
	return ""
}

// CreateACLs creates ACL bindings (CreateAcls v1-3, any broker, forwarded to
// the KRaft controller) and returns one result per binding in request
// order. Creating an existing binding succeeds. The batch is rejected with
// a *BatchError before sending for a repeated binding or one that is not
// concrete (Any/Match values, empty names, a principal without a type).
func (a *Admin) CreateACLs(ctx context.Context, acls []ACL) ([]ACLResult, error) {
	for i, b := range acls {
		if s := checkACL(b); s != "" {
			return nil, invalid(i, "%s", s)
		}
	}
	if err := checkUnique(len(acls), func(i int) ACL { return acls[i] }); err != nil {
		return nil, err
	}
	out := make([]ACLResult, len(acls))
	for i, b := range acls {
		out[i].ACL = b
	}
	set := func(i int, err error) { out[i].Err = err }
	opErr := a.runAnyBroker(ctx, anyBrokerPlan{
		resources: len(acls),
		send: func(ctx context.Context, idx []int) (map[int]error, error) {
			req := &wire.CreateAclsRequest{}
			for _, i := range idx {
				b := acls[i]
				req.Creations = append(req.Creations, wire.CreateAclsAclCreation{ResourceType: int8(b.ResourceType), ResourceName: b.ResourceName,
					ResourcePatternType: int8(b.PatternType), Principal: b.Principal, Host: b.Host, Operation: int8(b.Operation), PermissionType: int8(b.Permission)})
			}
			resp, err := a.cl.Request(ctx, client.AnyBroker, req)
			if err != nil {
				return nil, err
			}
			results := resp.(*wire.CreateAclsResponse).Results
			if len(results) != len(idx) {
				return nil, fmt.Errorf("%w: CreateAcls answered %d results for %d creations", client.ErrProtocol, len(results), len(idx))
			}
			return settle(idx, func(j int) error { return codeErr(results[j].ErrorCode, results[j].ErrorMessage) }, set), nil
		},
		fail: set,
	})
	if opErr != nil {
		return nil, opErr
	}
	return out, nil
}

// DescribedACLs is the answer to one ACLFilter of DescribeACLs.
type DescribedACLs struct {
	// Filter is the filter.
	Filter ACLFilter
	// ACLs are the bindings it matches.
	ACLs []ACL
	// Err is nil, or the Kafka error (wire.ErrSecurityDisabled without an
	// authorizer) or the failure that ended the retries.
	Err error
}

// DescribeACLs lists the ACL bindings matching each filter (DescribeAcls
// v1-3, one request per filter, any broker) and returns one answer per
// filter in request order. The batch is rejected with a *BatchError before
// sending for a repeated filter or one with an unknown enum value.
func (a *Admin) DescribeACLs(ctx context.Context, filters []ACLFilter) ([]DescribedACLs, error) {
	if err := checkFilters(filters); err != nil {
		return nil, err
	}
	out := make([]DescribedACLs, len(filters))
	for i, f := range filters {
		out[i].Filter = f
		req := &wire.DescribeAclsRequest{ResourceTypeFilter: int8(f.ResourceType), ResourceNameFilter: f.ResourceName, PatternTypeFilter: int8(f.PatternType),
			PrincipalFilter: f.Principal, HostFilter: f.Host, Operation: int8(f.Operation), PermissionType: int8(f.Permission)}
		out[i].Err = a.anyBrokerOnce(ctx, req, func(resp wire.Response) error {
			r := resp.(*wire.DescribeAclsResponse)
			if err := codeErr(r.ErrorCode, r.ErrorMessage); err != nil {
				return err
			}
			out[i].ACLs = nil
			for _, res := range r.Resources {
				for _, d := range res.Acls {
					out[i].ACLs = append(out[i].ACLs, ACL{ACLResourceType(res.ResourceType), res.ResourceName, PatternType(res.PatternType),
						d.Principal, d.Host, ACLOperation(d.Operation), ACLPermission(d.PermissionType)})
				}
			}
			return nil
		})
	}
	return out, nil
}

// checkFilters rejects repeated filters and unknown enum values.
func checkFilters(filters []ACLFilter) error {
	for i, f := range filters {
		switch {
		case f.ResourceType < ACLResourceAny || f.ResourceType > ACLResourceUser:
			return invalid(i, "unknown resource type %d", f.ResourceType)
		case f.PatternType < PatternAny || f.PatternType > PatternPrefixed:
			return invalid(i, "unknown pattern type %d", f.PatternType)
		case f.Operation < ACLOperationAny || f.Operation > ACLOperationTwoPhaseCommit:
			return invalid(i, "unknown operation %d", f.Operation)
		case f.Permission < ACLPermissionAny || f.Permission > ACLPermissionAllow:
			return invalid(i, "unknown permission %d", f.Permission)
		}
	}
	return checkUnique(len(filters), func(i int) string { return filterKey(filters[i]) })
}

// filterKey is a comparable rendering of f (its pointers dereferenced).
func filterKey(f ACLFilter) string {
	s := func(p *string) string {
		if p == nil {
			return "<any>"
		}
		return fmt.Sprintf("%q", *p)
	}
	return fmt.Sprintf("%d/%s/%d/%s/%s/%d/%d", f.ResourceType, s(f.ResourceName), f.PatternType, s(f.Principal), s(f.Host), f.Operation, f.Permission)
}

// DeletedACLs is the outcome of one filter of DeleteACLs.
type DeletedACLs struct {
	// Filter is the filter.
	Filter ACLFilter
	// Deleted are the bindings the filter matched and deleted.
	Deleted []ACL
	// Err is nil, or the filter's Kafka error (possibly in *BrokerError),
	// or the first error of a matched binding that could not be deleted.
	Err error
}

// DeleteACLs deletes the ACL bindings matching each filter (DeleteAcls v1-3,
// any broker, forwarded to the KRaft controller) and returns one outcome
// per filter in request order, with the bindings deleted. The batch is
// rejected with a *BatchError before sending for a repeated filter or one
// with an unknown enum value.
func (a *Admin) DeleteACLs(ctx context.Context, filters []ACLFilter) ([]DeletedACLs, error) {
	if err := checkFilters(filters); err != nil {
		return nil, err
	}
	out := make([]DeletedACLs, len(filters))
	for i, f := range filters {
		out[i].Filter = f
	}
	opErr := a.runAnyBroker(ctx, anyBrokerPlan{
		resources: len(filters),
		send: func(ctx context.Context, idx []int) (map[int]error, error) {
			req := &wire.DeleteAclsRequest{}
			for _, i := range idx {
				f := filters[i]
				req.Filters = append(req.Filters, wire.DeleteAclsFilter{ResourceTypeFilter: int8(f.ResourceType), ResourceNameFilter: f.ResourceName,
					PatternTypeFilter: int8(f.PatternType), PrincipalFilter: f.Principal, HostFilter: f.Host, Operation: int8(f.Operation), PermissionType: int8(f.Permission)})
			}
			resp, err := a.cl.Request(ctx, client.AnyBroker, req)
			if err != nil {
				return nil, err
			}
			results := resp.(*wire.DeleteAclsResponse).FilterResults
			if len(results) != len(idx) {
				return nil, fmt.Errorf("%w: DeleteAcls answered %d results for %d filters", client.ErrProtocol, len(results), len(idx))
			}
			retry := map[int]error{}
			for j, i := range idx {
				r := results[j]
				err := codeErr(r.ErrorCode, r.ErrorMessage)
				if err != nil && retriableAnswer(err) {
					retry[i] = err
					continue
				}
				out[i].Err = err
				for _, m := range r.MatchingAcls {
					if e := codeErr(m.ErrorCode, m.ErrorMessage); e != nil {
						if out[i].Err == nil {
							out[i].Err = e
						}
						continue
					}
					out[i].Deleted = append(out[i].Deleted, ACL{ACLResourceType(m.ResourceType), m.ResourceName, PatternType(m.PatternType),
						m.Principal, m.Host, ACLOperation(m.Operation), ACLPermission(m.PermissionType)})
				}
			}
			return retry, nil
		},
		fail: func(i int, err error) { out[i].Err = err },
	})
	if opErr != nil {
		return nil, opErr
	}
	return out, nil
}
