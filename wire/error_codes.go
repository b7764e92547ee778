package wire

// This file lists every error code Apache Kafka 4.4 defines
// (org.apache.kafka.common.protocol.Errors on the 4.4 branch), one *KafkaError
// per code. Retriable is true exactly when the Java exception for the code
// extends org.apache.kafka.common.errors.RetriableException. Code 0 (NONE) is
// not an error: ErrorForCode(0) returns nil.

// Broker error codes (Kafka protocol guide, "Error Codes").
var (
	// ErrUnknownServerError is UNKNOWN_SERVER_ERROR (code -1).
	ErrUnknownServerError = &KafkaError{Code: -1, Name: "UNKNOWN_SERVER_ERROR", Retriable: false,
		Message: "The server experienced an unexpected error when processing the request."}
	// ErrOffsetOutOfRange is OFFSET_OUT_OF_RANGE (code 1).
	ErrOffsetOutOfRange = &KafkaError{Code: 1, Name: "OFFSET_OUT_OF_RANGE", Retriable: false,
		Message: "The requested offset is not within the range of offsets maintained by the server."}
	// ErrCorruptMessage is CORRUPT_MESSAGE (code 2). Retriable.
	ErrCorruptMessage = &KafkaError{Code: 2, Name: "CORRUPT_MESSAGE", Retriable: true,
		Message: "This message has failed its CRC checksum, exceeds the valid size, has a null key for a compacted topic, or is otherwise corrupt."}
	// ErrUnknownTopicOrPartition is UNKNOWN_TOPIC_OR_PARTITION (code 3). Retriable.
	ErrUnknownTopicOrPartition = &KafkaError{Code: 3, Name: "UNKNOWN_TOPIC_OR_PARTITION", Retriable: true,
		Message: "This server does not host this topic-partition."}
	// ErrInvalidFetchSize is INVALID_FETCH_SIZE (code 4).
	ErrInvalidFetchSize = &KafkaError{Code: 4, Name: "INVALID_FETCH_SIZE", Retriable: false,
		Message: "The requested fetch size is invalid."}
	// ErrLeaderNotAvailable is LEADER_NOT_AVAILABLE (code 5). Retriable.
	ErrLeaderNotAvailable = &KafkaError{Code: 5, Name: "LEADER_NOT_AVAILABLE", Retriable: true,
		Message: "There is no leader for this topic-partition as we are in the middle of a leadership election."}
	// ErrNotLeaderOrFollower is NOT_LEADER_OR_FOLLOWER (code 6). Retriable.
	ErrNotLeaderOrFollower = &KafkaError{Code: 6, Name: "NOT_LEADER_OR_FOLLOWER", Retriable: true,
		Message: "For requests intended only for the leader, this error indicates that the broker is not the current leader. For requests intended for any replica, this error indicates that the broker is not a replica of the topic partition."}
	// ErrRequestTimedOut is REQUEST_TIMED_OUT (code 7). Retriable.
	ErrRequestTimedOut = &KafkaError{Code: 7, Name: "REQUEST_TIMED_OUT", Retriable: true,
		Message: "The request timed out."}
	// ErrBrokerNotAvailable is BROKER_NOT_AVAILABLE (code 8).
	ErrBrokerNotAvailable = &KafkaError{Code: 8, Name: "BROKER_NOT_AVAILABLE", Retriable: false,
		Message: "The broker is not available."}
	// ErrReplicaNotAvailable is REPLICA_NOT_AVAILABLE (code 9). Retriable.
	ErrReplicaNotAvailable = &KafkaError{Code: 9, Name: "REPLICA_NOT_AVAILABLE", Retriable: true,
		Message: "The replica is not available for the requested topic-partition. Produce/Fetch requests and other requests intended only for the leader or follower return NOT_LEADER_OR_FOLLOWER if the broker is not a replica of the topic-partition."}
	// ErrMessageTooLarge is MESSAGE_TOO_LARGE (code 10).
	ErrMessageTooLarge = &KafkaError{Code: 10, Name: "MESSAGE_TOO_LARGE", Retriable: false,
		Message: "The request included a message larger than the max message size the server will accept."}
	// ErrStaleControllerEpoch is STALE_CONTROLLER_EPOCH (code 11).
	ErrStaleControllerEpoch = &KafkaError{Code: 11, Name: "STALE_CONTROLLER_EPOCH", Retriable: false,
		Message: "The controller moved to another broker."}
	// ErrOffsetMetadataTooLarge is OFFSET_METADATA_TOO_LARGE (code 12).
	ErrOffsetMetadataTooLarge = &KafkaError{Code: 12, Name: "OFFSET_METADATA_TOO_LARGE", Retriable: false,
		Message: "The metadata field of the offset request was too large."}
	// ErrNetworkException is NETWORK_EXCEPTION (code 13). Retriable.
	ErrNetworkException = &KafkaError{Code: 13, Name: "NETWORK_EXCEPTION", Retriable: true,
		Message: "The server disconnected before a response was received."}
	// ErrCoordinatorLoadInProgress is COORDINATOR_LOAD_IN_PROGRESS (code 14). Retriable.
	ErrCoordinatorLoadInProgress = &KafkaError{Code: 14, Name: "COORDINATOR_LOAD_IN_PROGRESS", Retriable: true,
		Message: "The coordinator is loading and hence can't process requests."}
	// ErrCoordinatorNotAvailable is COORDINATOR_NOT_AVAILABLE (code 15). Retriable.
	ErrCoordinatorNotAvailable = &KafkaError{Code: 15, Name: "COORDINATOR_NOT_AVAILABLE", Retriable: true,
		Message: "The coordinator is not available."}
	// ErrNotCoordinator is NOT_COORDINATOR (code 16). Retriable.
	ErrNotCoordinator = &KafkaError{Code: 16, Name: "NOT_COORDINATOR", Retriable: true,
		Message: "This is not the correct coordinator."}
	// ErrInvalidTopicException is INVALID_TOPIC_EXCEPTION (code 17).
	ErrInvalidTopicException = &KafkaError{Code: 17, Name: "INVALID_TOPIC_EXCEPTION", Retriable: false,
		Message: "The request attempted to perform an operation on an invalid topic."}
	// ErrRecordListTooLarge is RECORD_LIST_TOO_LARGE (code 18).
	ErrRecordListTooLarge = &KafkaError{Code: 18, Name: "RECORD_LIST_TOO_LARGE", Retriable: false,
		Message: "The request included message batch larger than the configured segment size on the server."}
	// ErrNotEnoughReplicas is NOT_ENOUGH_REPLICAS (code 19). Retriable.
	ErrNotEnoughReplicas = &KafkaError{Code: 19, Name: "NOT_ENOUGH_REPLICAS", Retriable: true,
		Message: "Messages are rejected since there are fewer in-sync replicas than required."}
	// ErrNotEnoughReplicasAfterAppend is NOT_ENOUGH_REPLICAS_AFTER_APPEND (code 20). Retriable.
	ErrNotEnoughReplicasAfterAppend = &KafkaError{Code: 20, Name: "NOT_ENOUGH_REPLICAS_AFTER_APPEND", Retriable: true,
		Message: "Messages are written to the log, but to fewer in-sync replicas than required."}
	// ErrInvalidRequiredAcks is INVALID_REQUIRED_ACKS (code 21).
	ErrInvalidRequiredAcks = &KafkaError{Code: 21, Name: "INVALID_REQUIRED_ACKS", Retriable: false,
		Message: "Produce request specified an invalid value for required acks."}
	// ErrIllegalGeneration is ILLEGAL_GENERATION (code 22).
	ErrIllegalGeneration = &KafkaError{Code: 22, Name: "ILLEGAL_GENERATION", Retriable: false,
		Message: "Specified group generation id is not valid."}
	// ErrInconsistentGroupProtocol is INCONSISTENT_GROUP_PROTOCOL (code 23).
	ErrInconsistentGroupProtocol = &KafkaError{Code: 23, Name: "INCONSISTENT_GROUP_PROTOCOL", Retriable: false,
		Message: "The group member's supported protocols are incompatible with those of existing members or first group member tried to join with empty protocol type or empty protocol list."}
	// ErrInvalidGroupID is INVALID_GROUP_ID (code 24).
	ErrInvalidGroupID = &KafkaError{Code: 24, Name: "INVALID_GROUP_ID", Retriable: false,
		Message: "The group id is invalid."}
	// ErrUnknownMemberID is UNKNOWN_MEMBER_ID (code 25).
	ErrUnknownMemberID = &KafkaError{Code: 25, Name: "UNKNOWN_MEMBER_ID", Retriable: false,
		Message: "The coordinator is not aware of this member."}
	// ErrInvalidSessionTimeout is INVALID_SESSION_TIMEOUT (code 26).
	ErrInvalidSessionTimeout = &KafkaError{Code: 26, Name: "INVALID_SESSION_TIMEOUT", Retriable: false,
		Message: "The session timeout is not within the range allowed by the broker (as configured by group.min.session.timeout.ms and group.max.session.timeout.ms)."}
	// ErrRebalanceInProgress is REBALANCE_IN_PROGRESS (code 27).
	ErrRebalanceInProgress = &KafkaError{Code: 27, Name: "REBALANCE_IN_PROGRESS", Retriable: false,
		Message: "The group is rebalancing, so a rejoin is needed."}
	// ErrInvalidCommitOffsetSize is INVALID_COMMIT_OFFSET_SIZE (code 28).
	ErrInvalidCommitOffsetSize = &KafkaError{Code: 28, Name: "INVALID_COMMIT_OFFSET_SIZE", Retriable: false,
		Message: "The committing offset data size is not valid."}
	// ErrTopicAuthorizationFailed is TOPIC_AUTHORIZATION_FAILED (code 29).
	ErrTopicAuthorizationFailed = &KafkaError{Code: 29, Name: "TOPIC_AUTHORIZATION_FAILED", Retriable: false,
		Message: "Topic authorization failed."}
	// ErrGroupAuthorizationFailed is GROUP_AUTHORIZATION_FAILED (code 30).
	ErrGroupAuthorizationFailed = &KafkaError{Code: 30, Name: "GROUP_AUTHORIZATION_FAILED", Retriable: false,
		Message: "Group authorization failed."}
	// ErrClusterAuthorizationFailed is CLUSTER_AUTHORIZATION_FAILED (code 31).
	ErrClusterAuthorizationFailed = &KafkaError{Code: 31, Name: "CLUSTER_AUTHORIZATION_FAILED", Retriable: false,
		Message: "Cluster authorization failed."}
	// ErrInvalidTimestamp is INVALID_TIMESTAMP (code 32).
	ErrInvalidTimestamp = &KafkaError{Code: 32, Name: "INVALID_TIMESTAMP", Retriable: false,
		Message: "The timestamp of the message is out of acceptable range."}
	// ErrUnsupportedSASLMechanism is UNSUPPORTED_SASL_MECHANISM (code 33).
	ErrUnsupportedSASLMechanism = &KafkaError{Code: 33, Name: "UNSUPPORTED_SASL_MECHANISM", Retriable: false,
		Message: "The broker does not support the requested SASL mechanism."}
	// ErrIllegalSASLState is ILLEGAL_SASL_STATE (code 34).
	ErrIllegalSASLState = &KafkaError{Code: 34, Name: "ILLEGAL_SASL_STATE", Retriable: false,
		Message: "Request is not valid given the current SASL state."}
	// ErrUnsupportedVersion is UNSUPPORTED_VERSION (code 35).
	ErrUnsupportedVersion = &KafkaError{Code: 35, Name: "UNSUPPORTED_VERSION", Retriable: false,
		Message: "The version of API is not supported."}
	// ErrTopicAlreadyExists is TOPIC_ALREADY_EXISTS (code 36).
	ErrTopicAlreadyExists = &KafkaError{Code: 36, Name: "TOPIC_ALREADY_EXISTS", Retriable: false,
		Message: "Topic with this name already exists."}
	// ErrInvalidPartitions is INVALID_PARTITIONS (code 37).
	ErrInvalidPartitions = &KafkaError{Code: 37, Name: "INVALID_PARTITIONS", Retriable: false,
		Message: "Number of partitions is below 1."}
	// ErrInvalidReplicationFactor is INVALID_REPLICATION_FACTOR (code 38).
	ErrInvalidReplicationFactor = &KafkaError{Code: 38, Name: "INVALID_REPLICATION_FACTOR", Retriable: false,
		Message: "Replication factor is below 1 or larger than the number of available brokers."}
	// ErrInvalidReplicaAssignment is INVALID_REPLICA_ASSIGNMENT (code 39).
	ErrInvalidReplicaAssignment = &KafkaError{Code: 39, Name: "INVALID_REPLICA_ASSIGNMENT", Retriable: false,
		Message: "Replica assignment is invalid."}
	// ErrInvalidConfig is INVALID_CONFIG (code 40).
	ErrInvalidConfig = &KafkaError{Code: 40, Name: "INVALID_CONFIG", Retriable: false,
		Message: "Configuration is invalid."}
	// ErrNotController is NOT_CONTROLLER (code 41). Retriable.
	ErrNotController = &KafkaError{Code: 41, Name: "NOT_CONTROLLER", Retriable: true,
		Message: "This is not the correct controller for this cluster."}
	// ErrInvalidRequest is INVALID_REQUEST (code 42).
	ErrInvalidRequest = &KafkaError{Code: 42, Name: "INVALID_REQUEST", Retriable: false,
		Message: "This most likely occurs because of a request being malformed by the client library or the message was sent to an incompatible broker. See the broker logs for more details."}
	// ErrUnsupportedForMessageFormat is UNSUPPORTED_FOR_MESSAGE_FORMAT (code 43).
	ErrUnsupportedForMessageFormat = &KafkaError{Code: 43, Name: "UNSUPPORTED_FOR_MESSAGE_FORMAT", Retriable: false,
		Message: "The message format version on the broker does not support the request."}
	// ErrPolicyViolation is POLICY_VIOLATION (code 44).
	ErrPolicyViolation = &KafkaError{Code: 44, Name: "POLICY_VIOLATION", Retriable: false,
		Message: "Request parameters do not satisfy the configured policy."}
	// ErrOutOfOrderSequenceNumber is OUT_OF_ORDER_SEQUENCE_NUMBER (code 45).
	ErrOutOfOrderSequenceNumber = &KafkaError{Code: 45, Name: "OUT_OF_ORDER_SEQUENCE_NUMBER", Retriable: false,
		Message: "The broker received an out of order sequence number."}
	// ErrDuplicateSequenceNumber is DUPLICATE_SEQUENCE_NUMBER (code 46).
	ErrDuplicateSequenceNumber = &KafkaError{Code: 46, Name: "DUPLICATE_SEQUENCE_NUMBER", Retriable: false,
		Message: "The broker received a duplicate sequence number."}
	// ErrInvalidProducerEpoch is INVALID_PRODUCER_EPOCH (code 47).
	ErrInvalidProducerEpoch = &KafkaError{Code: 47, Name: "INVALID_PRODUCER_EPOCH", Retriable: false,
		Message: "Producer attempted to produce with an old epoch."}
	// ErrInvalidTxnState is INVALID_TXN_STATE (code 48).
	ErrInvalidTxnState = &KafkaError{Code: 48, Name: "INVALID_TXN_STATE", Retriable: false,
		Message: "The producer attempted a transactional operation in an invalid state."}
	// ErrInvalidProducerIDMapping is INVALID_PRODUCER_ID_MAPPING (code 49).
	ErrInvalidProducerIDMapping = &KafkaError{Code: 49, Name: "INVALID_PRODUCER_ID_MAPPING", Retriable: false,
		Message: "The producer attempted to use a producer id which is not currently assigned to its transactional id."}
	// ErrInvalidTransactionTimeout is INVALID_TRANSACTION_TIMEOUT (code 50).
	ErrInvalidTransactionTimeout = &KafkaError{Code: 50, Name: "INVALID_TRANSACTION_TIMEOUT", Retriable: false,
		Message: "The transaction timeout is larger than the maximum value allowed by the broker (as configured by transaction.max.timeout.ms)."}
	// ErrConcurrentTransactions is CONCURRENT_TRANSACTIONS (code 51). Retriable.
	ErrConcurrentTransactions = &KafkaError{Code: 51, Name: "CONCURRENT_TRANSACTIONS", Retriable: true,
		Message: "The producer attempted to update a transaction while another concurrent operation on the same transaction was ongoing."}
	// ErrTransactionCoordinatorFenced is TRANSACTION_COORDINATOR_FENCED (code 52).
	ErrTransactionCoordinatorFenced = &KafkaError{Code: 52, Name: "TRANSACTION_COORDINATOR_FENCED", Retriable: false,
		Message: "Indicates that the transaction coordinator sending a WriteTxnMarker is no longer the current coordinator for a given producer."}
	// ErrTransactionalIDAuthorizationFailed is TRANSACTIONAL_ID_AUTHORIZATION_FAILED (code 53).
	ErrTransactionalIDAuthorizationFailed = &KafkaError{Code: 53, Name: "TRANSACTIONAL_ID_AUTHORIZATION_FAILED", Retriable: false,
		Message: "Transactional Id authorization failed."}
	// ErrSecurityDisabled is SECURITY_DISABLED (code 54).
	ErrSecurityDisabled = &KafkaError{Code: 54, Name: "SECURITY_DISABLED", Retriable: false,
		Message: "Security features are disabled."}
	// ErrOperationNotAttempted is OPERATION_NOT_ATTEMPTED (code 55).
	ErrOperationNotAttempted = &KafkaError{Code: 55, Name: "OPERATION_NOT_ATTEMPTED", Retriable: false,
		Message: "The broker did not attempt to execute this operation. This may happen for batched RPCs where some operations in the batch failed, causing the broker to respond without trying the rest."}
	// ErrKafkaStorageError is KAFKA_STORAGE_ERROR (code 56). Retriable.
	ErrKafkaStorageError = &KafkaError{Code: 56, Name: "KAFKA_STORAGE_ERROR", Retriable: true,
		Message: "Disk error when trying to access log file on the disk."}
	// ErrLogDirNotFound is LOG_DIR_NOT_FOUND (code 57).
	ErrLogDirNotFound = &KafkaError{Code: 57, Name: "LOG_DIR_NOT_FOUND", Retriable: false,
		Message: "The user-specified log directory is not found in the broker config."}
	// ErrSASLAuthenticationFailed is SASL_AUTHENTICATION_FAILED (code 58).
	ErrSASLAuthenticationFailed = &KafkaError{Code: 58, Name: "SASL_AUTHENTICATION_FAILED", Retriable: false,
		Message: "SASL Authentication failed."}
	// ErrUnknownProducerID is UNKNOWN_PRODUCER_ID (code 59).
	ErrUnknownProducerID = &KafkaError{Code: 59, Name: "UNKNOWN_PRODUCER_ID", Retriable: false,
		Message: "This exception is raised by the broker if it could not locate the producer metadata associated with the producerId in question. This could happen if, for instance, the producer's records were deleted because their retention time had elapsed. Once the last records of the producerId are removed, the producer's metadata is removed from the broker, and future appends by the producer will return this exception."}
	// ErrReassignmentInProgress is REASSIGNMENT_IN_PROGRESS (code 60).
	ErrReassignmentInProgress = &KafkaError{Code: 60, Name: "REASSIGNMENT_IN_PROGRESS", Retriable: false,
		Message: "A partition reassignment is in progress."}
	// ErrDelegationTokenAuthDisabled is DELEGATION_TOKEN_AUTH_DISABLED (code 61).
	ErrDelegationTokenAuthDisabled = &KafkaError{Code: 61, Name: "DELEGATION_TOKEN_AUTH_DISABLED", Retriable: false,
		Message: "Delegation Token feature is not enabled."}
	// ErrDelegationTokenNotFound is DELEGATION_TOKEN_NOT_FOUND (code 62).
	ErrDelegationTokenNotFound = &KafkaError{Code: 62, Name: "DELEGATION_TOKEN_NOT_FOUND", Retriable: false,
		Message: "Delegation Token is not found on server."}
	// ErrDelegationTokenOwnerMismatch is DELEGATION_TOKEN_OWNER_MISMATCH (code 63).
	ErrDelegationTokenOwnerMismatch = &KafkaError{Code: 63, Name: "DELEGATION_TOKEN_OWNER_MISMATCH", Retriable: false,
		Message: "Specified Principal is not valid Owner/Renewer."}
	// ErrDelegationTokenRequestNotAllowed is DELEGATION_TOKEN_REQUEST_NOT_ALLOWED (code 64).
	ErrDelegationTokenRequestNotAllowed = &KafkaError{Code: 64, Name: "DELEGATION_TOKEN_REQUEST_NOT_ALLOWED", Retriable: false,
		Message: "Delegation Token requests are not allowed on PLAINTEXT/1-way SSL channels and on delegation token authenticated channels."}
	// ErrDelegationTokenAuthorizationFailed is DELEGATION_TOKEN_AUTHORIZATION_FAILED (code 65).
	ErrDelegationTokenAuthorizationFailed = &KafkaError{Code: 65, Name: "DELEGATION_TOKEN_AUTHORIZATION_FAILED", Retriable: false,
		Message: "Delegation Token authorization failed."}
	// ErrDelegationTokenExpired is DELEGATION_TOKEN_EXPIRED (code 66).
	ErrDelegationTokenExpired = &KafkaError{Code: 66, Name: "DELEGATION_TOKEN_EXPIRED", Retriable: false,
		Message: "Delegation Token is expired."}
	// ErrInvalidPrincipalType is INVALID_PRINCIPAL_TYPE (code 67).
	ErrInvalidPrincipalType = &KafkaError{Code: 67, Name: "INVALID_PRINCIPAL_TYPE", Retriable: false,
		Message: "Supplied principalType is not supported."}
	// ErrNonEmptyGroup is NON_EMPTY_GROUP (code 68).
	ErrNonEmptyGroup = &KafkaError{Code: 68, Name: "NON_EMPTY_GROUP", Retriable: false,
		Message: "The group is not empty."}
	// ErrGroupIDNotFound is GROUP_ID_NOT_FOUND (code 69).
	ErrGroupIDNotFound = &KafkaError{Code: 69, Name: "GROUP_ID_NOT_FOUND", Retriable: false,
		Message: "The group id does not exist."}
	// ErrFetchSessionIDNotFound is FETCH_SESSION_ID_NOT_FOUND (code 70). Retriable.
	ErrFetchSessionIDNotFound = &KafkaError{Code: 70, Name: "FETCH_SESSION_ID_NOT_FOUND", Retriable: true,
		Message: "The fetch session ID was not found."}
	// ErrInvalidFetchSessionEpoch is INVALID_FETCH_SESSION_EPOCH (code 71). Retriable.
	ErrInvalidFetchSessionEpoch = &KafkaError{Code: 71, Name: "INVALID_FETCH_SESSION_EPOCH", Retriable: true,
		Message: "The fetch session epoch is invalid."}
	// ErrListenerNotFound is LISTENER_NOT_FOUND (code 72). Retriable.
	ErrListenerNotFound = &KafkaError{Code: 72, Name: "LISTENER_NOT_FOUND", Retriable: true,
		Message: "There is no listener on the leader broker that matches the listener on which metadata request was processed."}
	// ErrTopicDeletionDisabled is TOPIC_DELETION_DISABLED (code 73).
	ErrTopicDeletionDisabled = &KafkaError{Code: 73, Name: "TOPIC_DELETION_DISABLED", Retriable: false,
		Message: "Topic deletion is disabled."}
	// ErrFencedLeaderEpoch is FENCED_LEADER_EPOCH (code 74). Retriable.
	ErrFencedLeaderEpoch = &KafkaError{Code: 74, Name: "FENCED_LEADER_EPOCH", Retriable: true,
		Message: "The leader epoch in the request is older than the epoch on the broker."}
	// ErrUnknownLeaderEpoch is UNKNOWN_LEADER_EPOCH (code 75). Retriable.
	ErrUnknownLeaderEpoch = &KafkaError{Code: 75, Name: "UNKNOWN_LEADER_EPOCH", Retriable: true,
		Message: "The leader epoch in the request is newer than the epoch on the broker."}
	// ErrUnsupportedCompressionType is UNSUPPORTED_COMPRESSION_TYPE (code 76).
	ErrUnsupportedCompressionType = &KafkaError{Code: 76, Name: "UNSUPPORTED_COMPRESSION_TYPE", Retriable: false,
		Message: "The requesting client does not support the compression type of given partition."}
	// ErrStaleBrokerEpoch is STALE_BROKER_EPOCH (code 77).
	ErrStaleBrokerEpoch = &KafkaError{Code: 77, Name: "STALE_BROKER_EPOCH", Retriable: false,
		Message: "Broker epoch has changed."}
	// ErrOffsetNotAvailable is OFFSET_NOT_AVAILABLE (code 78). Retriable.
	ErrOffsetNotAvailable = &KafkaError{Code: 78, Name: "OFFSET_NOT_AVAILABLE", Retriable: true,
		Message: "The leader high watermark has not caught up from a recent leader election so the offsets cannot be guaranteed to be monotonically increasing."}
	// ErrMemberIDRequired is MEMBER_ID_REQUIRED (code 79).
	ErrMemberIDRequired = &KafkaError{Code: 79, Name: "MEMBER_ID_REQUIRED", Retriable: false,
		Message: "The group member needs to have a valid member id before actually entering a consumer group."}
	// ErrPreferredLeaderNotAvailable is PREFERRED_LEADER_NOT_AVAILABLE (code 80). Retriable.
	ErrPreferredLeaderNotAvailable = &KafkaError{Code: 80, Name: "PREFERRED_LEADER_NOT_AVAILABLE", Retriable: true,
		Message: "The preferred leader was not available."}
	// ErrGroupMaxSizeReached is GROUP_MAX_SIZE_REACHED (code 81).
	ErrGroupMaxSizeReached = &KafkaError{Code: 81, Name: "GROUP_MAX_SIZE_REACHED", Retriable: false,
		Message: "The group has reached its maximum size."}
	// ErrFencedInstanceID is FENCED_INSTANCE_ID (code 82).
	ErrFencedInstanceID = &KafkaError{Code: 82, Name: "FENCED_INSTANCE_ID", Retriable: false,
		Message: "The broker rejected this static consumer since another consumer with the same group.instance.id has registered with a different member.id."}
	// ErrEligibleLeadersNotAvailable is ELIGIBLE_LEADERS_NOT_AVAILABLE (code 83). Retriable.
	ErrEligibleLeadersNotAvailable = &KafkaError{Code: 83, Name: "ELIGIBLE_LEADERS_NOT_AVAILABLE", Retriable: true,
		Message: "Eligible topic partition leaders are not available."}
	// ErrElectionNotNeeded is ELECTION_NOT_NEEDED (code 84). Retriable.
	ErrElectionNotNeeded = &KafkaError{Code: 84, Name: "ELECTION_NOT_NEEDED", Retriable: true,
		Message: "Leader election not needed for topic partition."}
	// ErrNoReassignmentInProgress is NO_REASSIGNMENT_IN_PROGRESS (code 85).
	ErrNoReassignmentInProgress = &KafkaError{Code: 85, Name: "NO_REASSIGNMENT_IN_PROGRESS", Retriable: false,
		Message: "No partition reassignment is in progress."}
	// ErrGroupSubscribedToTopic is GROUP_SUBSCRIBED_TO_TOPIC (code 86).
	ErrGroupSubscribedToTopic = &KafkaError{Code: 86, Name: "GROUP_SUBSCRIBED_TO_TOPIC", Retriable: false,
		Message: "Deleting offsets of a topic is forbidden while the consumer group is actively subscribed to it."}
	// ErrInvalidRecord is INVALID_RECORD (code 87).
	ErrInvalidRecord = &KafkaError{Code: 87, Name: "INVALID_RECORD", Retriable: false,
		Message: "This record has failed the validation on broker and hence will be rejected."}
	// ErrUnstableOffsetCommit is UNSTABLE_OFFSET_COMMIT (code 88). Retriable.
	ErrUnstableOffsetCommit = &KafkaError{Code: 88, Name: "UNSTABLE_OFFSET_COMMIT", Retriable: true,
		Message: "There are unstable offsets that need to be cleared."}
	// ErrThrottlingQuotaExceeded is THROTTLING_QUOTA_EXCEEDED (code 89). Retriable.
	ErrThrottlingQuotaExceeded = &KafkaError{Code: 89, Name: "THROTTLING_QUOTA_EXCEEDED", Retriable: true,
		Message: "The throttling quota has been exceeded."}
	// ErrProducerFenced is PRODUCER_FENCED (code 90).
	ErrProducerFenced = &KafkaError{Code: 90, Name: "PRODUCER_FENCED", Retriable: false,
		Message: "There is a newer producer with the same transactionalId which fences the current one."}
	// ErrResourceNotFound is RESOURCE_NOT_FOUND (code 91).
	ErrResourceNotFound = &KafkaError{Code: 91, Name: "RESOURCE_NOT_FOUND", Retriable: false,
		Message: "A request illegally referred to a resource that does not exist."}
	// ErrDuplicateResource is DUPLICATE_RESOURCE (code 92).
	ErrDuplicateResource = &KafkaError{Code: 92, Name: "DUPLICATE_RESOURCE", Retriable: false,
		Message: "A request illegally referred to the same resource twice."}
	// ErrUnacceptableCredential is UNACCEPTABLE_CREDENTIAL (code 93).
	ErrUnacceptableCredential = &KafkaError{Code: 93, Name: "UNACCEPTABLE_CREDENTIAL", Retriable: false,
		Message: "Requested credential would not meet criteria for acceptability."}
	// ErrInconsistentVoterSet is INCONSISTENT_VOTER_SET (code 94).
	ErrInconsistentVoterSet = &KafkaError{Code: 94, Name: "INCONSISTENT_VOTER_SET", Retriable: false,
		Message: "Indicates that the either the sender or recipient of a voter-only request is not one of the expected voters."}
	// ErrInvalidUpdateVersion is INVALID_UPDATE_VERSION (code 95).
	ErrInvalidUpdateVersion = &KafkaError{Code: 95, Name: "INVALID_UPDATE_VERSION", Retriable: false,
		Message: "The given update version was invalid."}
	// ErrFeatureUpdateFailed is FEATURE_UPDATE_FAILED (code 96).
	ErrFeatureUpdateFailed = &KafkaError{Code: 96, Name: "FEATURE_UPDATE_FAILED", Retriable: false,
		Message: "Unable to update finalized features due to an unexpected server error."}
	// ErrPrincipalDeserializationFailure is PRINCIPAL_DESERIALIZATION_FAILURE (code 97).
	ErrPrincipalDeserializationFailure = &KafkaError{Code: 97, Name: "PRINCIPAL_DESERIALIZATION_FAILURE", Retriable: false,
		Message: "Request principal deserialization failed during forwarding. This indicates an internal error on the broker cluster security setup."}
	// ErrSnapshotNotFound is SNAPSHOT_NOT_FOUND (code 98).
	ErrSnapshotNotFound = &KafkaError{Code: 98, Name: "SNAPSHOT_NOT_FOUND", Retriable: false,
		Message: "Requested snapshot was not found."}
	// ErrPositionOutOfRange is POSITION_OUT_OF_RANGE (code 99).
	ErrPositionOutOfRange = &KafkaError{Code: 99, Name: "POSITION_OUT_OF_RANGE", Retriable: false,
		Message: "Requested position is not greater than or equal to zero, and less than the size of the snapshot."}
	// ErrUnknownTopicID is UNKNOWN_TOPIC_ID (code 100). Retriable.
	ErrUnknownTopicID = &KafkaError{Code: 100, Name: "UNKNOWN_TOPIC_ID", Retriable: true,
		Message: "This server does not host this topic ID."}
	// ErrDuplicateBrokerRegistration is DUPLICATE_BROKER_REGISTRATION (code 101).
	ErrDuplicateBrokerRegistration = &KafkaError{Code: 101, Name: "DUPLICATE_BROKER_REGISTRATION", Retriable: false,
		Message: "This broker ID is already in use."}
	// ErrBrokerIDNotRegistered is BROKER_ID_NOT_REGISTERED (code 102).
	ErrBrokerIDNotRegistered = &KafkaError{Code: 102, Name: "BROKER_ID_NOT_REGISTERED", Retriable: false,
		Message: "The given broker ID was not registered."}
	// ErrInconsistentTopicID is INCONSISTENT_TOPIC_ID (code 103). Retriable.
	ErrInconsistentTopicID = &KafkaError{Code: 103, Name: "INCONSISTENT_TOPIC_ID", Retriable: true,
		Message: "The log's topic ID did not match the topic ID in the request."}
	// ErrInconsistentClusterID is INCONSISTENT_CLUSTER_ID (code 104).
	ErrInconsistentClusterID = &KafkaError{Code: 104, Name: "INCONSISTENT_CLUSTER_ID", Retriable: false,
		Message: "The clusterId in the request does not match that found on the server."}
	// ErrTransactionalIDNotFound is TRANSACTIONAL_ID_NOT_FOUND (code 105).
	ErrTransactionalIDNotFound = &KafkaError{Code: 105, Name: "TRANSACTIONAL_ID_NOT_FOUND", Retriable: false,
		Message: "The transactionalId could not be found."}
	// ErrFetchSessionTopicIDError is FETCH_SESSION_TOPIC_ID_ERROR (code 106). Retriable.
	ErrFetchSessionTopicIDError = &KafkaError{Code: 106, Name: "FETCH_SESSION_TOPIC_ID_ERROR", Retriable: true,
		Message: "The fetch session encountered inconsistent topic ID usage."}
	// ErrIneligibleReplica is INELIGIBLE_REPLICA (code 107).
	ErrIneligibleReplica = &KafkaError{Code: 107, Name: "INELIGIBLE_REPLICA", Retriable: false,
		Message: "The new ISR contains at least one ineligible replica."}
	// ErrNewLeaderElected is NEW_LEADER_ELECTED (code 108).
	ErrNewLeaderElected = &KafkaError{Code: 108, Name: "NEW_LEADER_ELECTED", Retriable: false,
		Message: "The AlterPartition request successfully updated the partition state but the leader has changed."}
	// ErrOffsetMovedToTieredStorage is OFFSET_MOVED_TO_TIERED_STORAGE (code 109).
	ErrOffsetMovedToTieredStorage = &KafkaError{Code: 109, Name: "OFFSET_MOVED_TO_TIERED_STORAGE", Retriable: false,
		Message: "The requested offset is moved to tiered storage."}
	// ErrFencedMemberEpoch is FENCED_MEMBER_EPOCH (code 110).
	ErrFencedMemberEpoch = &KafkaError{Code: 110, Name: "FENCED_MEMBER_EPOCH", Retriable: false,
		Message: "The member epoch is fenced by the group coordinator. The member must abandon all its partitions and rejoin."}
	// ErrUnreleasedInstanceID is UNRELEASED_INSTANCE_ID (code 111).
	ErrUnreleasedInstanceID = &KafkaError{Code: 111, Name: "UNRELEASED_INSTANCE_ID", Retriable: false,
		Message: "The instance ID is still used by another member in the consumer group. That member must leave first."}
	// ErrUnsupportedAssignor is UNSUPPORTED_ASSIGNOR (code 112).
	ErrUnsupportedAssignor = &KafkaError{Code: 112, Name: "UNSUPPORTED_ASSIGNOR", Retriable: false,
		Message: "The assignor or its version range is not supported by the consumer group."}
	// ErrStaleMemberEpoch is STALE_MEMBER_EPOCH (code 113).
	ErrStaleMemberEpoch = &KafkaError{Code: 113, Name: "STALE_MEMBER_EPOCH", Retriable: false,
		Message: "The member epoch is stale. The member must retry after receiving its updated member epoch via the ConsumerGroupHeartbeat API."}
	// ErrMismatchedEndpointType is MISMATCHED_ENDPOINT_TYPE (code 114).
	ErrMismatchedEndpointType = &KafkaError{Code: 114, Name: "MISMATCHED_ENDPOINT_TYPE", Retriable: false,
		Message: "The request was sent to an endpoint of the wrong type."}
	// ErrUnsupportedEndpointType is UNSUPPORTED_ENDPOINT_TYPE (code 115).
	ErrUnsupportedEndpointType = &KafkaError{Code: 115, Name: "UNSUPPORTED_ENDPOINT_TYPE", Retriable: false,
		Message: "This endpoint type is not supported yet."}
	// ErrUnknownControllerID is UNKNOWN_CONTROLLER_ID (code 116).
	ErrUnknownControllerID = &KafkaError{Code: 116, Name: "UNKNOWN_CONTROLLER_ID", Retriable: false,
		Message: "This controller ID is not known."}
	// ErrUnknownSubscriptionID is UNKNOWN_SUBSCRIPTION_ID (code 117).
	ErrUnknownSubscriptionID = &KafkaError{Code: 117, Name: "UNKNOWN_SUBSCRIPTION_ID", Retriable: false,
		Message: "Client sent a push telemetry request with an invalid or outdated subscription ID."}
	// ErrTelemetryTooLarge is TELEMETRY_TOO_LARGE (code 118).
	ErrTelemetryTooLarge = &KafkaError{Code: 118, Name: "TELEMETRY_TOO_LARGE", Retriable: false,
		Message: "Client sent a push telemetry request larger than the maximum size the broker will accept."}
	// ErrInvalidRegistration is INVALID_REGISTRATION (code 119).
	ErrInvalidRegistration = &KafkaError{Code: 119, Name: "INVALID_REGISTRATION", Retriable: false,
		Message: "The controller has considered the broker registration to be invalid."}
	// ErrTransactionAbortable is TRANSACTION_ABORTABLE (code 120).
	ErrTransactionAbortable = &KafkaError{Code: 120, Name: "TRANSACTION_ABORTABLE", Retriable: false,
		Message: "The server encountered an error with the transaction. The client can abort the transaction to continue using this transactional ID."}
	// ErrInvalidRecordState is INVALID_RECORD_STATE (code 121).
	ErrInvalidRecordState = &KafkaError{Code: 121, Name: "INVALID_RECORD_STATE", Retriable: false,
		Message: "The record state is invalid. The acknowledgement of delivery could not be completed."}
	// ErrShareSessionNotFound is SHARE_SESSION_NOT_FOUND (code 122). Retriable.
	ErrShareSessionNotFound = &KafkaError{Code: 122, Name: "SHARE_SESSION_NOT_FOUND", Retriable: true,
		Message: "The share session was not found."}
	// ErrInvalidShareSessionEpoch is INVALID_SHARE_SESSION_EPOCH (code 123). Retriable.
	ErrInvalidShareSessionEpoch = &KafkaError{Code: 123, Name: "INVALID_SHARE_SESSION_EPOCH", Retriable: true,
		Message: "The share session epoch is invalid."}
	// ErrFencedStateEpoch is FENCED_STATE_EPOCH (code 124).
	ErrFencedStateEpoch = &KafkaError{Code: 124, Name: "FENCED_STATE_EPOCH", Retriable: false,
		Message: "The coordinator rejected the request because the state epoch did not match."}
	// ErrInvalidVoterKey is INVALID_VOTER_KEY (code 125).
	ErrInvalidVoterKey = &KafkaError{Code: 125, Name: "INVALID_VOTER_KEY", Retriable: false,
		Message: "The voter key doesn't match the receiving replica's key."}
	// ErrDuplicateVoter is DUPLICATE_VOTER (code 126).
	ErrDuplicateVoter = &KafkaError{Code: 126, Name: "DUPLICATE_VOTER", Retriable: false,
		Message: "The voter is already part of the set of voters."}
	// ErrVoterNotFound is VOTER_NOT_FOUND (code 127).
	ErrVoterNotFound = &KafkaError{Code: 127, Name: "VOTER_NOT_FOUND", Retriable: false,
		Message: "The voter is not part of the set of voters."}
	// ErrInvalidRegularExpression is INVALID_REGULAR_EXPRESSION (code 128).
	ErrInvalidRegularExpression = &KafkaError{Code: 128, Name: "INVALID_REGULAR_EXPRESSION", Retriable: false,
		Message: "The regular expression is not valid."}
	// ErrRebootstrapRequired is REBOOTSTRAP_REQUIRED (code 129).
	ErrRebootstrapRequired = &KafkaError{Code: 129, Name: "REBOOTSTRAP_REQUIRED", Retriable: false,
		Message: "Client metadata is stale. The client should rebootstrap to obtain new metadata."}
	// ErrStreamsInvalidTopology is STREAMS_INVALID_TOPOLOGY (code 130).
	ErrStreamsInvalidTopology = &KafkaError{Code: 130, Name: "STREAMS_INVALID_TOPOLOGY", Retriable: false,
		Message: "The supplied topology is invalid."}
	// ErrStreamsInvalidTopologyEpoch is STREAMS_INVALID_TOPOLOGY_EPOCH (code 131).
	ErrStreamsInvalidTopologyEpoch = &KafkaError{Code: 131, Name: "STREAMS_INVALID_TOPOLOGY_EPOCH", Retriable: false,
		Message: "The supplied topology epoch is invalid."}
	// ErrStreamsTopologyFenced is STREAMS_TOPOLOGY_FENCED (code 132).
	ErrStreamsTopologyFenced = &KafkaError{Code: 132, Name: "STREAMS_TOPOLOGY_FENCED", Retriable: false,
		Message: "The supplied topology epoch is outdated."}
	// ErrShareSessionLimitReached is SHARE_SESSION_LIMIT_REACHED (code 133). Retriable.
	ErrShareSessionLimitReached = &KafkaError{Code: 133, Name: "SHARE_SESSION_LIMIT_REACHED", Retriable: true,
		Message: "The limit of share sessions has been reached."}
	// ErrGroupDeletionFailed is GROUP_DELETION_FAILED (code 134).
	ErrGroupDeletionFailed = &KafkaError{Code: 134, Name: "GROUP_DELETION_FAILED", Retriable: false,
		Message: "DeleteGroups could not complete; see the error message on the per-group result for details."}
	// ErrStreamsTopologyDescriptionUpdateFailed is STREAMS_TOPOLOGY_DESCRIPTION_UPDATE_FAILED (code 135).
	ErrStreamsTopologyDescriptionUpdateFailed = &KafkaError{Code: 135, Name: "STREAMS_TOPOLOGY_DESCRIPTION_UPDATE_FAILED", Retriable: false,
		Message: "The broker could not process the topology description update; see the error message for details."}
	// ErrControllerIDNotRegistered is CONTROLLER_ID_NOT_REGISTERED (code 136).
	ErrControllerIDNotRegistered = &KafkaError{Code: 136, Name: "CONTROLLER_ID_NOT_REGISTERED", Retriable: false,
		Message: "The given controller ID was not registered."}
)

// errorsByCode maps every error code Apache Kafka 4.4 defines to its value.
var errorsByCode = map[int16]*KafkaError{
	-1:  ErrUnknownServerError,
	1:   ErrOffsetOutOfRange,
	2:   ErrCorruptMessage,
	3:   ErrUnknownTopicOrPartition,
	4:   ErrInvalidFetchSize,
	5:   ErrLeaderNotAvailable,
	6:   ErrNotLeaderOrFollower,
	7:   ErrRequestTimedOut,
	8:   ErrBrokerNotAvailable,
	9:   ErrReplicaNotAvailable,
	10:  ErrMessageTooLarge,
	11:  ErrStaleControllerEpoch,
	12:  ErrOffsetMetadataTooLarge,
	13:  ErrNetworkException,
	14:  ErrCoordinatorLoadInProgress,
	15:  ErrCoordinatorNotAvailable,
	16:  ErrNotCoordinator,
	17:  ErrInvalidTopicException,
	18:  ErrRecordListTooLarge,
	19:  ErrNotEnoughReplicas,
	20:  ErrNotEnoughReplicasAfterAppend,
	21:  ErrInvalidRequiredAcks,
	22:  ErrIllegalGeneration,
	23:  ErrInconsistentGroupProtocol,
	24:  ErrInvalidGroupID,
	25:  ErrUnknownMemberID,
	26:  ErrInvalidSessionTimeout,
	27:  ErrRebalanceInProgress,
	28:  ErrInvalidCommitOffsetSize,
	29:  ErrTopicAuthorizationFailed,
	30:  ErrGroupAuthorizationFailed,
	31:  ErrClusterAuthorizationFailed,
	32:  ErrInvalidTimestamp,
	33:  ErrUnsupportedSASLMechanism,
	34:  ErrIllegalSASLState,
	35:  ErrUnsupportedVersion,
	36:  ErrTopicAlreadyExists,
	37:  ErrInvalidPartitions,
	38:  ErrInvalidReplicationFactor,
	39:  ErrInvalidReplicaAssignment,
	40:  ErrInvalidConfig,
	41:  ErrNotController,
	42:  ErrInvalidRequest,
	43:  ErrUnsupportedForMessageFormat,
	44:  ErrPolicyViolation,
	45:  ErrOutOfOrderSequenceNumber,
	46:  ErrDuplicateSequenceNumber,
	47:  ErrInvalidProducerEpoch,
	48:  ErrInvalidTxnState,
	49:  ErrInvalidProducerIDMapping,
	50:  ErrInvalidTransactionTimeout,
	51:  ErrConcurrentTransactions,
	52:  ErrTransactionCoordinatorFenced,
	53:  ErrTransactionalIDAuthorizationFailed,
	54:  ErrSecurityDisabled,
	55:  ErrOperationNotAttempted,
	56:  ErrKafkaStorageError,
	57:  ErrLogDirNotFound,
	58:  ErrSASLAuthenticationFailed,
	59:  ErrUnknownProducerID,
	60:  ErrReassignmentInProgress,
	61:  ErrDelegationTokenAuthDisabled,
	62:  ErrDelegationTokenNotFound,
	63:  ErrDelegationTokenOwnerMismatch,
	64:  ErrDelegationTokenRequestNotAllowed,
	65:  ErrDelegationTokenAuthorizationFailed,
	66:  ErrDelegationTokenExpired,
	67:  ErrInvalidPrincipalType,
	68:  ErrNonEmptyGroup,
	69:  ErrGroupIDNotFound,
	70:  ErrFetchSessionIDNotFound,
	71:  ErrInvalidFetchSessionEpoch,
	72:  ErrListenerNotFound,
	73:  ErrTopicDeletionDisabled,
	74:  ErrFencedLeaderEpoch,
	75:  ErrUnknownLeaderEpoch,
	76:  ErrUnsupportedCompressionType,
	77:  ErrStaleBrokerEpoch,
	78:  ErrOffsetNotAvailable,
	79:  ErrMemberIDRequired,
	80:  ErrPreferredLeaderNotAvailable,
	81:  ErrGroupMaxSizeReached,
	82:  ErrFencedInstanceID,
	83:  ErrEligibleLeadersNotAvailable,
	84:  ErrElectionNotNeeded,
	85:  ErrNoReassignmentInProgress,
	86:  ErrGroupSubscribedToTopic,
	87:  ErrInvalidRecord,
	88:  ErrUnstableOffsetCommit,
	89:  ErrThrottlingQuotaExceeded,
	90:  ErrProducerFenced,
	91:  ErrResourceNotFound,
	92:  ErrDuplicateResource,
	93:  ErrUnacceptableCredential,
	94:  ErrInconsistentVoterSet,
	95:  ErrInvalidUpdateVersion,
	96:  ErrFeatureUpdateFailed,
	97:  ErrPrincipalDeserializationFailure,
	98:  ErrSnapshotNotFound,
	99:  ErrPositionOutOfRange,
	100: ErrUnknownTopicID,
	101: ErrDuplicateBrokerRegistration,
	102: ErrBrokerIDNotRegistered,
	103: ErrInconsistentTopicID,
	104: ErrInconsistentClusterID,
	105: ErrTransactionalIDNotFound,
	106: ErrFetchSessionTopicIDError,
	107: ErrIneligibleReplica,
	108: ErrNewLeaderElected,
	109: ErrOffsetMovedToTieredStorage,
	110: ErrFencedMemberEpoch,
	111: ErrUnreleasedInstanceID,
	112: ErrUnsupportedAssignor,
	113: ErrStaleMemberEpoch,
	114: ErrMismatchedEndpointType,
	115: ErrUnsupportedEndpointType,
	116: ErrUnknownControllerID,
	117: ErrUnknownSubscriptionID,
	118: ErrTelemetryTooLarge,
	119: ErrInvalidRegistration,
	120: ErrTransactionAbortable,
	121: ErrInvalidRecordState,
	122: ErrShareSessionNotFound,
	123: ErrInvalidShareSessionEpoch,
	124: ErrFencedStateEpoch,
	125: ErrInvalidVoterKey,
	126: ErrDuplicateVoter,
	127: ErrVoterNotFound,
	128: ErrInvalidRegularExpression,
	129: ErrRebootstrapRequired,
	130: ErrStreamsInvalidTopology,
	131: ErrStreamsInvalidTopologyEpoch,
	132: ErrStreamsTopologyFenced,
	133: ErrShareSessionLimitReached,
	134: ErrGroupDeletionFailed,
	135: ErrStreamsTopologyDescriptionUpdateFailed,
	136: ErrControllerIDNotRegistered,
}

// allErrors lists the table in code order, for tests and documentation.
var allErrors = []*KafkaError{
	ErrUnknownServerError,
	ErrOffsetOutOfRange,
	ErrCorruptMessage,
	ErrUnknownTopicOrPartition,
	ErrInvalidFetchSize,
	ErrLeaderNotAvailable,
	ErrNotLeaderOrFollower,
	ErrRequestTimedOut,
	ErrBrokerNotAvailable,
	ErrReplicaNotAvailable,
	ErrMessageTooLarge,
	ErrStaleControllerEpoch,
	ErrOffsetMetadataTooLarge,
	ErrNetworkException,
	ErrCoordinatorLoadInProgress,
	ErrCoordinatorNotAvailable,
	ErrNotCoordinator,
	ErrInvalidTopicException,
	ErrRecordListTooLarge,
	ErrNotEnoughReplicas,
	ErrNotEnoughReplicasAfterAppend,
	ErrInvalidRequiredAcks,
	ErrIllegalGeneration,
	ErrInconsistentGroupProtocol,
	ErrInvalidGroupID,
	ErrUnknownMemberID,
	ErrInvalidSessionTimeout,
	ErrRebalanceInProgress,
	ErrInvalidCommitOffsetSize,
	ErrTopicAuthorizationFailed,
	ErrGroupAuthorizationFailed,
	ErrClusterAuthorizationFailed,
	ErrInvalidTimestamp,
	ErrUnsupportedSASLMechanism,
	ErrIllegalSASLState,
	ErrUnsupportedVersion,
	ErrTopicAlreadyExists,
	ErrInvalidPartitions,
	ErrInvalidReplicationFactor,
	ErrInvalidReplicaAssignment,
	ErrInvalidConfig,
	ErrNotController,
	ErrInvalidRequest,
	ErrUnsupportedForMessageFormat,
	ErrPolicyViolation,
	ErrOutOfOrderSequenceNumber,
	ErrDuplicateSequenceNumber,
	ErrInvalidProducerEpoch,
	ErrInvalidTxnState,
	ErrInvalidProducerIDMapping,
	ErrInvalidTransactionTimeout,
	ErrConcurrentTransactions,
	ErrTransactionCoordinatorFenced,
	ErrTransactionalIDAuthorizationFailed,
	ErrSecurityDisabled,
	ErrOperationNotAttempted,
	ErrKafkaStorageError,
	ErrLogDirNotFound,
	ErrSASLAuthenticationFailed,
	ErrUnknownProducerID,
	ErrReassignmentInProgress,
	ErrDelegationTokenAuthDisabled,
	ErrDelegationTokenNotFound,
	ErrDelegationTokenOwnerMismatch,
	ErrDelegationTokenRequestNotAllowed,
	ErrDelegationTokenAuthorizationFailed,
	ErrDelegationTokenExpired,
	ErrInvalidPrincipalType,
	ErrNonEmptyGroup,
	ErrGroupIDNotFound,
	ErrFetchSessionIDNotFound,
	ErrInvalidFetchSessionEpoch,
	ErrListenerNotFound,
	ErrTopicDeletionDisabled,
	ErrFencedLeaderEpoch,
	ErrUnknownLeaderEpoch,
	ErrUnsupportedCompressionType,
	ErrStaleBrokerEpoch,
	ErrOffsetNotAvailable,
	ErrMemberIDRequired,
	ErrPreferredLeaderNotAvailable,
	ErrGroupMaxSizeReached,
	ErrFencedInstanceID,
	ErrEligibleLeadersNotAvailable,
	ErrElectionNotNeeded,
	ErrNoReassignmentInProgress,
	ErrGroupSubscribedToTopic,
	ErrInvalidRecord,
	ErrUnstableOffsetCommit,
	ErrThrottlingQuotaExceeded,
	ErrProducerFenced,
	ErrResourceNotFound,
	ErrDuplicateResource,
	ErrUnacceptableCredential,
	ErrInconsistentVoterSet,
	ErrInvalidUpdateVersion,
	ErrFeatureUpdateFailed,
	ErrPrincipalDeserializationFailure,
	ErrSnapshotNotFound,
	ErrPositionOutOfRange,
	ErrUnknownTopicID,
	ErrDuplicateBrokerRegistration,
	ErrBrokerIDNotRegistered,
	ErrInconsistentTopicID,
	ErrInconsistentClusterID,
	ErrTransactionalIDNotFound,
	ErrFetchSessionTopicIDError,
	ErrIneligibleReplica,
	ErrNewLeaderElected,
	ErrOffsetMovedToTieredStorage,
	ErrFencedMemberEpoch,
	ErrUnreleasedInstanceID,
	ErrUnsupportedAssignor,
	ErrStaleMemberEpoch,
	ErrMismatchedEndpointType,
	ErrUnsupportedEndpointType,
	ErrUnknownControllerID,
	ErrUnknownSubscriptionID,
	ErrTelemetryTooLarge,
	ErrInvalidRegistration,
	ErrTransactionAbortable,
	ErrInvalidRecordState,
	ErrShareSessionNotFound,
	ErrInvalidShareSessionEpoch,
	ErrFencedStateEpoch,
	ErrInvalidVoterKey,
	ErrDuplicateVoter,
	ErrVoterNotFound,
	ErrInvalidRegularExpression,
	ErrRebootstrapRequired,
	ErrStreamsInvalidTopology,
	ErrStreamsInvalidTopologyEpoch,
	ErrStreamsTopologyFenced,
	ErrShareSessionLimitReached,
	ErrGroupDeletionFailed,
	ErrStreamsTopologyDescriptionUpdateFailed,
	ErrControllerIDNotRegistered,
}
