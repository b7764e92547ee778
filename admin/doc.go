// Package admin administers a Kafka cluster: topics, offsets, configs,
// groups and the operator's calls, one typed result per resource.
//
// # Quick start
//
// Create a topic and wait until every broker knows it (the package's
// Examples have whole programs):
//
//	a := admin.New(cl, admin.Config{}) // cl: a *client.Client
//	res, err := a.CreateTopics(ctx, []admin.NewTopic{{Name: "orders", Partitions: 6}},
//		admin.TopicOptions{WaitVisible: true})
//	if err != nil {
//		return err // nothing could be sent, or the deadline ended first
//	}
//	if err := res[0].Err; err != nil && !errors.Is(err, gregor.ErrTopicAlreadyExists) {
//		return err // this topic's own failure
//	}
//
// It covers topics, partitions, offsets, records, configs, cluster and
// consumer-group administration, and the operator's calls (reassignments,
// leader elections, log dirs, ACLs, SCRAM users, quotas, producers and
// transactions, features, the KRaft quorum). Every call takes a batch of
// resources and returns one typed result per resource, in request order.
// The contract (validation, errors, retries) follows; the summary of every
// call comes last.
//
// # Errors
//
// Validation: a batch with a repeated resource, an invalid name or a
// negative count fails with a *BatchError (matching ErrInvalidBatch) that
// names the resource, and nothing is sent.
//
// Errors: a batch returns per-resource errors inside its results (Err
// fields: *gregor.KafkaError (= *wire.KafkaError) values, possibly wrapped in *BrokerError with
// the broker's message; match with errors.Is(err, gregor.ErrTopicAlreadyExists)
// and friends) and returns a non-nil error only for an operation-wide
// failure (nothing could be sent, or the deadline ended before any answer).
// Retriable failures (NOT_COORDINATOR and coordinator loading, leadership
// changes, NOT_CONTROLLER, transport failures of idempotent requests) are
// retried with backoff until the deadline; a resource still failing then
// carries an error matching client.ErrTimeout that wraps the last failure.
// UNKNOWN_TOPIC_OR_PARTITION is an answer, not retried (after one metadata
// refresh for leader-routed calls): use WaitVisible after creating topics.
// Singleton convenience (turning a per-resource error into a command
// failure) is the caller's.
//
// # API summary
//
// Every call takes ctx first; its deadline bounds the whole
// operation, retries included. TopicPartition is gregor.TopicPartition.
//
//	a := admin.New(cl *client.Client, admin.Config{})      // RetryBackoff, RetryBackoffMax
//
//	Topics (any broker; KRaft forwards to the controller)
//	  CreateTopics(ctx, []NewTopic, TopicOptions) ([]CreateTopicResult, error)
//	  CreatePartitions(ctx, []PartitionsIncrease, TopicOptions) ([]TopicResult, error)
//	  DeleteTopics(ctx, []TopicRef, TopicOptions) ([]TopicResult, error)      // by name or ID
//	  DescribeTopics(ctx, []string) ([]TopicDescription, error)                // fresh metadata
//	  ListTopics(ctx, includeInternal bool) ([]TopicListing, error)            // sorted by name
//	  TopicOptions{ValidateOnly, WaitVisible}  // WaitVisible: every broker's metadata shows the change
//
//	Offsets and records (partition leaders)
//	  ListOffsets(ctx, []OffsetQuery, ListOffsetsOptions) ([]ListedOffset, error)
//	      OffsetQuery{TopicPartition, Spec: OffsetEarliest | OffsetLatest | OffsetMaxTimestamp | AtTimestamp(time.Time)}
//	  DeleteRecords(ctx, []RecordsCutoff) ([]DeletedRecords, error)            // new low watermark
//
//	Configs (broker resources to that broker, others to any broker)
//	  DescribeConfigs(ctx, []ConfigResource) ([]ResourceConfig, error)        // sensitive values never shown
//	  IncrementalAlterConfigs(ctx, []AlterConfigsResource, AlterConfigsOptions) ([]AlterConfigsResult, error)
//	      ConfigChange{Name, Op: OpSet | OpDelete | OpAppend | OpSubtract, Value}; AlterConfigsOptions{ValidateOnly}
//
//	Cluster
//	  DescribeCluster(ctx) (*ClusterDescription, error)                        // cluster ID, controller, brokers
//
//	Consumer groups (group coordinators)
//	  ListGroups(ctx, ListGroupsOptions) (*GroupListing, error)                // every broker; per-broker outcomes
//	  DescribeGroups(ctx, []string) ([]GroupDescription, error)                // classic (DescribeGroups)
//	  DescribeConsumerGroups(ctx, []string) ([]GroupDescription, error)        // KIP-848 first, classic fallback
//	  DeleteGroups(ctx, []string) ([]GroupResult, error)
//	  FetchOffsets(ctx, []GroupOffsetsQuery, FetchOffsetsOptions) ([]GroupOffsets, error)
//	      one group / many partitions / many groups (OffsetFetch v8+ batching); RequireStable;
//	      CommittedOffset.Committed=false means no commit (never offset 0)
//	  AlterOffsets(ctx, group, []OffsetToCommit) ([]PartitionResult, error)
//	  DeleteOffsets(ctx, group, []TopicPartition) ([]PartitionResult, error)
//	  Lag(ctx, group, LagOptions) (GroupLag, error)
//	      committed offsets vs end offsets per partition (as kadm's Lag), Total
//
//	Partitions and replicas (async: verify with the Wait helpers, bounded by ctx)
//	  AlterPartitionReassignments(ctx, []Reassignment) ([]PartitionResult, error)   // nil Replicas cancels
//	  ListPartitionReassignments(ctx, []TopicPartition) ([]OngoingReassignment, error) // nil: all
//	  WaitReassignments(ctx, []TopicPartition) error
//	  ElectLeaders(ctx, ElectPreferred | ElectUnclean, []TopicPartition) ([]PartitionResult, error)
//	  WaitPreferredLeaders(ctx, []TopicPartition) error                          // every broker's metadata
//	  DescribeTopicPartitions(ctx, []string, DescribeTopicPartitionsOptions) ([]TopicDescription, error) // KIP-966, paged
//	  DescribeLogDirs(ctx, brokers []int32, []TopicPartition) ([]BrokerLogDirs, error)
//	  AlterReplicaLogDirs(ctx, []ReplicaMove) ([]ReplicaMoveResult, error)
//
//	Security
//	  CreateACLs(ctx, []ACL) ([]ACLResult, error); DescribeACLs / DeleteACLs(ctx, []ACLFilter)
//	  DescribeUserScramCredentials(ctx, users []string) ([]UserScramCredentials, error)
//	  AlterUserScramCredentials(ctx, []ScramCredentialChange) ([]ScramChangeResult, error) // salted here, never printed
//	  DescribeClientQuotas(ctx, []QuotaMatch, strict) ([]QuotaValues, error)
//	  AlterClientQuotas(ctx, []QuotaAlteration, validateOnly) ([]QuotaAlterationResult, error)
//
//	Producers and transactions
//	  DescribeProducers(ctx, []TopicPartition) ([]PartitionProducers, error)     // partition leaders
//	  DescribeTransactions(ctx, []string) ([]TransactionDescription, error)      // transaction coordinators
//	  ListTransactions(ctx, ListTransactionsOptions) (*TransactionListing, error) // every broker
//	  AbortTransactions(ctx, []AbortSpec) ([]PartitionResult, error)             // WriteTxnMarkers to leaders
//	  FenceProducers(ctx, []string) ([]FencedProducer, error)                    // InitProducerId
//
//	Cluster features and quorum
//	  DescribeFeatures(ctx, broker) (*FeatureMetadata, error)                    // ApiVersions
//	  UpdateFeatures(ctx, []FeatureUpdate, validateOnly) ([]FeatureResult, error); WaitFeatures(ctx, map[string]int16)
//	  DescribeQuorum(ctx) (*QuorumDescription, error)
package admin
