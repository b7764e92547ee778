package wire

// groupAPIs lists the classic group membership APIs (JoinGroup, Heartbeat,
// LeaveGroup, SyncGroup) with the versions gregor implements: from the Kafka
// 4.x baseline (KIP-896 removed JoinGroup v0-1) to the newest version Apache
// Kafka 4.4 serves. Source: clients/src/main/resources/common/message/
// {JoinGroup,SyncGroup,Heartbeat,LeaveGroup}{Request,Response}.json.
var groupAPIs = []APIInfo{
	{Key: KeyJoinGroup, Name: "JoinGroup", MinVersion: 2, MaxVersion: 9, Flexible: 6},
	{Key: KeyHeartbeat, Name: "Heartbeat", MinVersion: 0, MaxVersion: 4, Flexible: 4},
	{Key: KeyLeaveGroup, Name: "LeaveGroup", MinVersion: 0, MaxVersion: 5, Flexible: 4},
	{Key: KeySyncGroup, Name: "SyncGroup", MinVersion: 0, MaxVersion: 5, Flexible: 4},
}
