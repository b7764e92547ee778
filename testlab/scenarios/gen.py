#!/usr/bin/env python3
"""Generates testlab/scenarios/*.json (run from testlab/: python3 scenarios/gen.py).

The JSON files are the source of truth for the runner; this script only keeps
the repetitive parts (records, preambles) consistent. Edit it and regenerate,
or edit a JSON file directly.
"""
import json, os

OUT = os.path.dirname(os.path.abspath(__file__))

def u(s): return {"encoding": "utf8", "data": s}
def h(s): return {"encoding": "hex", "data": s}

def rec(topic, seq, op, key=None, value=None, headers=None, partition=0):
    hs = [{"name": "testlab-operation-id", "value": u(op)}, {"name": "testlab-sequence", "value": u(str(seq))}]
    if headers: hs += headers
    return {"topic": topic, "partition": partition, "sequence": seq, "key": key, "value": value, "headers": hs}

def send(op, record, expect="acknowledged", producer="p1"):
    return {"command": {"kind": "send", "producer_id": producer, "operation_id": op, "record": record},
            "expect": {"terminals": {op: expect}}}

def cmd(kind, expect=None, **kw):
    c = {"command": dict(kind=kind, **kw)}
    if expect: c["expect"] = expect
    return c

def conf(compression="none", linger=5, retries=10, backoff=100):
    return {"delivery_timeout_ms": 30000, "compression": compression, "max_retries": retries, "retry_backoff_ms": backoff,
            "limits": {"retained_bytes": 33554432, "in_flight_records": 1024, "waiting_records": 1024, "waiting_bytes": 16777216,
                       "batch_records": 512, "batch_bytes": 1048576, "request_bytes": 4194304,
                       "max_in_flight_requests_per_broker": 5, "linger_ms": linger}}

def open_producer(client="c1", producer="p1", configuration=None):
    steps = []
    if configuration is None:
        steps.append(cmd("create_client", client_id=client))
    else:
        steps.append(cmd("create_configured_client", client_id=client, configuration=configuration))
    steps.append(cmd("create_producer", client_id=client, producer_id=producer))
    return steps

def close_producer(client="c1", producer="p1"):
    return [cmd("close_producer", producer_id=producer), cmd("shutdown_client", client_id=client)]

def scenario(id, desc, requires, steps, topics=(), env=None, timeout=None):
    s = {"id": id, "description": desc, "requires": requires}
    if env: s["environment"] = env
    s["setup"] = {"topics": [{"name": t, "partitions": p} for t, p in topics]}
    s["steps"] = steps
    if timeout: s["timeout_seconds"] = timeout
    return s

S = []
T = "${topic:t}"

S.append(scenario("handshake-descriptor", "hello answered by ready with a v34 descriptor; finish with nothing open.", [], []))

for sid, env, req in [
    ("security-plaintext", {"security": "plaintext"}, []),
    ("security-tls-custom", {"security": "tls_custom"}, ["tls"]),
    ("security-sasl-plain", {"security": "sasl_plaintext", "mechanism": "plain"}, []),
    ("security-sasl-scram-sha256", {"security": "sasl_plaintext", "mechanism": "scram_sha256"}, ["scram"]),
    ("security-sasl-scram-sha512", {"security": "sasl_plaintext", "mechanism": "scram_sha512"}, ["scram"]),
    ("security-sasl-tls-plain", {"security": "sasl_tls", "mechanism": "plain"}, ["tls"]),
    ("security-sasl-tls-scram-sha512", {"security": "sasl_tls", "mechanism": "scram_sha512"}, ["tls", "scram"]),
]:
    S.append(scenario(sid, "Connect with %s, prove readiness, produce one record the observer reads back." % json.dumps(env),
        ["client_readiness", "producer"] + req,
        [cmd("create_client", client_id="c1"), cmd("await_client_ready", client_id="c1"),
         cmd("create_producer", client_id="c1", producer_id="p1"),
         send("op-1", rec(T, 1, "op-1", u("k"), u("secured")))] + close_producer(), [(T, 1)], env))

S.append(scenario("produce-one-record", "Send one record; the observer finds it at the acknowledged offset.", ["producer"],
    open_producer() + [send("op-1", rec(T, 1, "op-1", u("key-1"), u("value-1")))] + close_producer(), [(T, 1)]))

nulls = [
    ("op-1", None, None, None),
    ("op-2", u(""), u(""), None),
    ("op-3", None, u(""), [{"name": "rep", "value": u("1")}, {"name": "rep", "value": None}, {"name": "rep", "value": u("")}, {"name": "rep", "value": h("00ff")}]),
    ("op-4", h("00"), None, [{"name": "empty", "value": u("")}]),
]
S.append(scenario("produce-null-empty-headers",
    "Null vs empty key and value and repeated headers (null, empty, binary) survive the round trip: the observer and an assigned consumer see them exactly.",
    ["producer", "assigned_consumer"],
    open_producer() + [send(op, rec(T, i + 1, op, k, v, hs)) for i, (op, k, v, hs) in enumerate(nulls)] + [
        cmd("flush", producer_id="p1"),
        cmd("create_assigned_consumer", client_id="c1", consumer_id="k1"),
        cmd("assign_beginning", consumer_id="k1", topic=T, partition=0),
        cmd("receive", {"records": ["op-1", "op-2", "op-3", "op-4"]}, consumer_id="k1", receive_id="r1", timeout_ms=10000),
        cmd("close_assigned_consumer", consumer_id="k1")] + close_producer(), [(T, 1)]))

ops31 = [{"operation_id": "op-%d" % i, "record": rec(T, i, "op-%d" % i, u("k%d" % i), u("v%d" % i), partition=i % 3)} for i in range(1, 32)]
S.append(scenario("send-batch-31", "send_batch of 31 records over 3 partitions: admissions in order, one terminal each, every offset confirmed by the observer.",
    ["producer", "producer_batch"],
    open_producer() + [cmd("send_batch", {"terminals": {o["operation_id"]: "acknowledged" for o in ops31}}, producer_id="p1", operations=ops31)] + close_producer(),
    [(T, 3)]))

for comp in ["none", "gzip", "snappy", "lz4", "zstd"]:
    ops = [{"operation_id": "op-%d" % i, "record": rec(T, i, "op-%d" % i, u("k%d" % i), u(("compressible-%s-" % comp) * 20))} for i in range(1, 9)]
    S.append(scenario("compression-" + comp, "create_configured_client with compression %s; a batch of 8 records the observer (franz-go) decompresses and compares." % comp,
        ["producer", "producer_configuration", "producer_batch"],
        open_producer(configuration=conf(comp)) + [cmd("send_batch", {"terminals": {o["operation_id"]: "acknowledged" for o in ops}}, producer_id="p1", operations=ops)] + close_producer(),
        [(T, 1)]))

S.append(scenario("cancel-cancelled-not-sent", "A record lingering (linger 1000 ms) is cancelled before it is sent: terminal definitely_not_sent/cancelled, outcomes [cancelled_not_sent, already_terminal], and the broker does not have it.",
    ["producer", "producer_cancellation", "producer_configuration"],
    open_producer(configuration=conf(linger=1000)) + [
        cmd("cancel_producer_send", {"terminals": {"op-1": "definitely_not_sent"}, "terminal_codes": {"op-1": "cancelled"},
                                     "event": {"outcomes": ["cancelled_not_sent", "already_terminal"]}},
            producer_id="p1", operation_id="op-1", record=rec(T, 1, "op-1", u("k"), u("never")), timeout_ms=10000),
        send("op-2", rec(T, 2, "op-2", u("k"), u("after-cancel")))] + close_producer(), [(T, 1)]))

too_late_conf = conf(linger=0, retries=0, backoff=0)
too_late_conf["delivery_timeout_ms"] = 4000
S.append(scenario("cancel-too-late", "Every broker of a 1+3 cluster is paused (SIGSTOP) so a record sent at once (linger 0) stays in flight once written; cancelling it is then too late: [too_late, too_late] with a possibly_sent terminal (delivery timeout 4 s). The adapter may still win the race and cancel before the write ([cancelled_not_sent, already_terminal]); both paths are judged by the verifier's rules and the broker is checked after the brokers resume.",
    ["producer", "producer_cancellation", "producer_configuration"],
    open_producer(configuration=too_late_conf) + [
        send("op-0", rec(T, 0, "op-0", u("k"), u("warm-up"))),
        {"env": {"action": "pause_broker", "broker": 0}},
        cmd("cancel_producer_send", {"event_one_of": [{"outcomes": ["too_late", "too_late"]}, {"outcomes": ["too_late", "already_terminal"]}, {"outcomes": ["cancelled_not_sent", "already_terminal"]}]},
            producer_id="p1", operation_id="op-1", record=rec(T, 1, "op-1", u("k"), u("in flight")), timeout_ms=10000),
        {"env": {"action": "resume_broker", "broker": 0}}] + close_producer(), [(T, 1)], {"shape": "1+3"}, timeout=300))

S.append(scenario("concurrent-actors", "Two producers send and an assigned consumer receives concurrently; join reports each actor in order; every claim is checked.",
    ["producer", "assigned_consumer", "concurrent_actors"],
    open_producer() + [cmd("create_producer", client_id="c1", producer_id="p2"),
        send("op-0", rec(T, 0, "op-0", u("k"), u("before"))),
        cmd("create_assigned_consumer", client_id="c1", consumer_id="k1"),
        cmd("assign_beginning", consumer_id="k1", topic=T, partition=0),
        cmd("start_concurrent_actors", concurrency_id="g1", actors=[
            {"kind": "producer_send", "actor_id": "a1", "producer_id": "p1", "operation_id": "op-1", "record": rec(T, 1, "op-1", u("k1"), u("a1"))},
            {"kind": "producer_send", "actor_id": "a2", "producer_id": "p2", "operation_id": "op-2", "record": rec(T, 2, "op-2", u("k2"), u("a2"))},
            {"kind": "assigned_receive", "actor_id": "a3", "consumer_id": "k1", "receive_id": "r1", "timeout_ms": 5000}]),
        cmd("join_concurrent_actors", {"terminals": {"op-1": "acknowledged", "op-2": "acknowledged"}}, concurrency_id="g1", timeout_ms=30000),
        cmd("close_assigned_consumer", consumer_id="k1"), cmd("close_producer", producer_id="p2")] + close_producer(), [(T, 1)]))

ops3 = [{"operation_id": "op-%d" % i, "record": rec(T, i, "op-%d" % i, u("k%d" % i), u("v%d" % i))} for i in range(1, 4)]
S.append(scenario("assigned-consumer-beginning", "Three records in one batch; an assigned consumer from the beginning receives exactly them, in order.",
    ["producer", "producer_batch", "assigned_consumer"],
    open_producer() + [cmd("send_batch", producer_id="p1", operations=ops3),
        cmd("create_assigned_consumer", client_id="c1", consumer_id="k1"),
        cmd("assign_beginning", consumer_id="k1", topic=T, partition=0),
        cmd("receive", {"records": ["op-1", "op-2", "op-3"]}, consumer_id="k1", receive_id="r1", timeout_ms=10000),
        cmd("close_assigned_consumer", consumer_id="k1")] + close_producer(), [(T, 1)]))

U = "${topic:u}"
S.append(scenario("assigned-consumer-batch-assignment", "assign_beginning_batch over two topics (3 partitions) in one call; receives return only records the broker has.",
    ["producer", "assigned_consumer"],
    open_producer() + [send("op-1", rec(T, 1, "op-1", u("a"), u("t-p0"))), send("op-2", rec(T, 2, "op-2", u("b"), u("t-p1"), partition=1)),
        send("op-3", rec(U, 3, "op-3", u("c"), u("u-p0"))),
        cmd("create_assigned_consumer", client_id="c1", consumer_id="k1"),
        cmd("assign_beginning_batch", consumer_id="k1", partitions=[{"topic": T, "partition": 0}, {"topic": T, "partition": 1}, {"topic": U, "partition": 0}], timeout_ms=10000),
        cmd("receive", consumer_id="k1", receive_id="r1", timeout_ms=5000),
        cmd("receive", consumer_id="k1", receive_id="r2", timeout_ms=2000),
        cmd("close_assigned_consumer", consumer_id="k1")] + close_producer(), [(T, 2), (U, 1)]))

def ctl(op, control, expect=None):
    return cmd("control_assigned_consumer", expect or {"event": {"control": control["kind"]}}, operation_id=op, consumer_id="k1", control=control, timeout_ms=10000)
p0 = {"topic": T, "partition": 0}; p1 = {"topic": T, "partition": 1}
S.append(scenario("assigned-consumer-controls", "Every assigned-consumer control kind (replace, seek, pause, add, resume, remove) with receives that show its effect.",
    ["producer", "producer_batch", "assigned_consumer", "assigned_consumer_controls"],
    open_producer() + [
        cmd("send_batch", producer_id="p1", operations=[{"operation_id": "a0", "record": rec(T, 1, "a0", u("a"), u("a0"))}, {"operation_id": "a1", "record": rec(T, 2, "a1", u("a"), u("a1"))}]),
        send("b0", rec(T, 3, "b0", u("b"), u("b0"), partition=1)),
        cmd("create_assigned_consumer", client_id="c1", consumer_id="k1"),
        ctl("ctl-1", {"kind": "replace", "partitions": [dict(p0, position={"kind": "beginning"})]}),
        cmd("receive", {"records": ["a0", "a1"]}, consumer_id="k1", receive_id="r1", timeout_ms=10000),
        ctl("ctl-2", {"kind": "seek", "partition": p0, "position": {"kind": "offset", "offset": 1}}),
        cmd("receive", {"records": ["a1"]}, consumer_id="k1", receive_id="r2", timeout_ms=10000),
        ctl("ctl-3", {"kind": "pause", "partition": p0}),
        ctl("ctl-4", {"kind": "add", "partitions": [dict(p1, position={"kind": "beginning"})]}),
        cmd("receive", {"records": ["b0"]}, consumer_id="k1", receive_id="r3", timeout_ms=10000),
        ctl("ctl-5", {"kind": "resume", "partition": p0}),
        ctl("ctl-6", {"kind": "remove", "partitions": [p1]}),
        ctl("ctl-7", {"kind": "seek", "partition": p0, "position": {"kind": "beginning"}}),
        cmd("receive", {"records": ["a0", "a1"]}, consumer_id="k1", receive_id="r4", timeout_ms=10000),
        cmd("close_assigned_consumer", consumer_id="k1")] + close_producer(), [(T, 2)]))

S.append(scenario("client-readiness-repeated", "await_client_ready three times on one client, each its own command.", ["client_readiness"],
    [cmd("create_client", client_id="c1")] + [cmd("await_client_ready", client_id="c1") for _ in range(3)] + [cmd("shutdown_client", client_id="c1")]))

ops5 = [{"operation_id": "op-%d" % i, "record": rec(T, i, "op-%d" % i, u("k"), u("v%d" % i))} for i in range(1, 6)]
S.append(scenario("client-metrics-after-traffic", "After 5 acknowledged records the metrics snapshot counts at least 5 produced records.",
    ["producer", "producer_batch", "client_metrics"],
    open_producer() + [cmd("send_batch", producer_id="p1", operations=ops5),
        cmd("observe_client_metrics", {"min_produce_records": 5}, client_id="c1", operation_id="m-1")] + close_producer(), [(T, 1)]))

A = "${topic:admin}"; B = "${topic:admin-new}"; V = "${topic:admin-validate}"
def adm(kind, op, expect=None, **kw):
    return cmd(kind, expect, client_id="c1", operation_id=op, timeout_ms=30000, **kw)
S.append(scenario("admin-topics", "Topic admin: create, duplicate create fails broker:broker_36 then recovery, validate_only leaves the broker unchanged, partitions, batch creation outcomes in order, list, describe, delete, missing topic fails broker:broker_3.",
    ["admin"],
    [cmd("create_client", client_id="c1"),
     adm("create_topic", "a-1", topic=A, partitions=3, replication_factor=1, validate_only=False),
     adm("create_topic", "a-2", {"error": "broker:broker_36"}, topic=A, partitions=3, replication_factor=1, validate_only=False),
     adm("describe_topic", "a-3", {"event": {"partitions": [0, 1, 2]}}, topic=A),
     adm("create_topic", "a-4", topic=V, partitions=2, replication_factor=1, validate_only=True),
     adm("create_partitions", "a-5", topic=A, total_count=5, validate_only=True),
     adm("create_partitions", "a-6", topic=A, total_count=5, validate_only=False),
     adm("describe_topic", "a-7", {"event": {"partitions": [0, 1, 2, 3, 4]}}, topic=A),
     adm("create_topics_batch", "a-8", {"event": {"outcomes": [{"topic": B, "error_code": None}, {"topic": A, "error_code": "broker:broker_36"}]}},
         topics=[{"topic": B, "partitions": 2, "replication_factor": 1}, {"topic": A, "partitions": 1, "replication_factor": 1}]),
     adm("list_topics", "a-9", include_internal=False),
     adm("list_topics", "a-10", include_internal=True),
     adm("delete_topic", "a-11", topic=A),
     adm("delete_topic", "a-12", {"error": "broker:broker_3"}, topic=A),
     adm("describe_topic", "a-13", {"error": "broker:broker_3"}, topic=A),
     adm("describe_topic", "a-14", {"event": {"partitions": [0, 1]}}, topic=B),
     adm("delete_topic", "a-15", topic=B),
     adm("describe_cluster", "a-16"),
     cmd("shutdown_client", client_id="c1")]))

S.append(scenario("admin-offsets-configs", "list_offsets, delete_records, describe/alter topic config (validate_only first) against the broker's own view.",
    ["admin", "producer", "producer_batch"],
    open_producer() + [cmd("send_batch", producer_id="p1", operations=ops5), cmd("close_producer", producer_id="p1"),
     adm("list_offsets", "o-1", {"event": {"offset": 0}}, topic=T, partition=0, position="earliest"),
     adm("list_offsets", "o-2", {"event": {"offset": 5}}, topic=T, partition=0, position="latest"),
     adm("delete_records", "o-3", {"event": {"low_watermark": 2}}, topic=T, partition=0, before_offset=2),
     adm("list_offsets", "o-4", {"event": {"offset": 2}}, topic=T, partition=0, position="earliest"),
     adm("list_offsets", "o-5", {"error": "broker:broker_3"}, topic=T, partition=7, position="latest"),
     adm("describe_topic_config", "o-6", topic=T, config_name="retention.ms"),
     adm("alter_topic_config", "o-7", topic=T, config_name="retention.ms", value="3600000", validate_only=True),
     adm("alter_topic_config", "o-8", topic=T, config_name="retention.ms", value="3600000", validate_only=False),
     adm("describe_topic_config", "o-9", {"event": {"value": "3600000"}}, topic=T, config_name="retention.ms"),
     cmd("shutdown_client", client_id="c1")], [(T, 1)]))

G = "${group:g}"; G2 = "${group:g2}"
S.append(scenario("admin-consumer-groups", "Group offset admin: alter, list (single, batch, multi-group), describe, classic describe, delete offsets, delete group; each claim read back from the broker.",
    ["admin"],
    [cmd("create_client", client_id="c1"),
     adm("alter_consumer_group_offset", "g-1", group_id=G, topic=T, partition=0, offset=3),
     adm("list_consumer_group_offsets", "g-2", {"event": {"offset": 3}}, group_id=G, topic=T, partition=0, require_stable=False),
     adm("alter_consumer_group_offsets", "g-3", {"event": {"outcomes": [{"topic": T, "partition": 1, "error_code": None}, {"topic": T, "partition": 2, "error_code": None}]}},
         group_id=G, offsets=[{"topic": T, "partition": 1, "offset": 1}, {"topic": T, "partition": 2, "offset": 2}]),
     adm("list_consumer_group_offsets_batch", "g-4", {"event": {"outcomes": [{"topic": T, "partition": 0, "offset": 3, "error_code": None}, {"topic": T, "partition": 2, "offset": 2, "error_code": None}]}},
         group_id=G, require_stable=False, partitions=[{"topic": T, "partition": 0}, {"topic": T, "partition": 2}]),
     adm("alter_consumer_group_offset", "g-5", group_id=G2, topic=T, partition=0, offset=1),
     adm("list_consumer_groups_offsets", "g-6", require_stable=False, groups=[{"group_id": G, "partitions": [{"topic": T, "partition": 1}]}, {"group_id": G2, "partitions": [{"topic": T, "partition": 0}]}]),
     adm("list_consumer_groups", "g-7"),
     adm("describe_consumer_group", "g-8", {"event": {"member_count": 0}}, group_id=G),
     adm("describe_classic_groups", "g-9", group_ids=[G, G2]),
     adm("delete_consumer_group_offset", "g-10", group_id=G, topic=T, partition=0),
     adm("list_consumer_group_offsets", "g-11", {"event": {"offset": None}}, group_id=G, topic=T, partition=0, require_stable=False),
     adm("delete_consumer_group_offsets", "g-12", group_id=G, partitions=[{"topic": T, "partition": 1}, {"topic": T, "partition": 2}]),
     adm("delete_consumer_group", "g-13", group_id=G),
     adm("delete_consumer_group", "g-14", group_id=G2),
     cmd("shutdown_client", client_id="c1")], [(T, 3)]))

S.append(scenario("lifecycle-independent-clients", "Two clients with a producer each: closing one client's producer and shutting that client down leaves the other working.",
    ["producer", "lifecycle"],
    open_producer("c1", "p1") + open_producer("c2", "p2") + [
        send("op-1", rec(T, 1, "op-1", u("a"), u("c1"))),
        cmd("close_producer", producer_id="p1"), cmd("shutdown_client", client_id="c1"),
        send("op-2", rec(T, 2, "op-2", u("b"), u("c2 still works")), producer="p2"),
        cmd("flush", producer_id="p2")] + close_producer("c2", "p2"), [(T, 1)]))

S.append(scenario("misuse-command-before-hello", "A command before hello is a state error: fatal adapter_state, non-zero exit.", [],
    [{"raw": {"skip_hello": True, "line": '{"protocol_version":34,"command_id":"${next_command_id}","kind":"create_client","client_id":"c1"}'},
      "expect": {"fatal": "adapter_state", "exit": "nonzero"}}]))
S.append(scenario("misuse-finish-open-handles", "finish while a client is open: fatal adapter_state, non-zero exit.", [],
    [cmd("create_client", client_id="c1"), {"command": {"kind": "finish"}, "expect": {"fatal": "adapter_state"}}]))
S.append(scenario("misuse-oversize-line", "A command line over 4 MiB: no event, non-zero exit.", [],
    [{"raw": {"oversize_bytes": 4194400}, "expect": {"no_events": True, "exit": "nonzero"}}]))
S.append(scenario("misuse-malformed-json", "Malformed JSON: no event, non-zero exit.", [],
    [{"raw": {"line": '{"protocol_version":34,"command_id":"command-00000002","kind":'}, "expect": {"no_events": True, "exit": "nonzero"}}]))
S.append(scenario("misuse-wrong-version", "A parseable command with protocol_version 33: fatal protocol_version with its command id, non-zero exit.", [],
    [{"raw": {"protocol_version": 33, "command": {"kind": "create_client", "client_id": "c1"}}, "expect": {"fatal": "protocol_version", "exit": "nonzero"}}]))

S.append(scenario("broker-kill-restart-1p3", "1 controller + 3 brokers, RF 3, min ISR 2, producer with 100 retries 500 ms apart (bounded by the 30 s delivery timeout): produce, SIGKILL the partition leader, produce again (the producer must find the new leader; acks=all still met by 2 replicas), restart the broker, produce again; every record on the broker.",
    ["producer", "producer_configuration"],
    open_producer(configuration=conf(retries=100, backoff=500)) + [send("op-1", rec(T, 1, "op-1", u("k"), u("before"))),
        {"env": {"action": "kill_leader", "topic": T, "partition": 0}},
        send("op-2", rec(T, 2, "op-2", u("k"), u("leader killed"))),
        {"env": {"action": "restart_broker"}},
        send("op-3", rec(T, 3, "op-3", u("k"), u("after restart")))] + close_producer(),
    [(T, 1)], {"shape": "1+3"}, timeout=300))

S.append(scenario("env-config-then-describe", "The environment alters a topic config with Kafka's ConfigCommand; the adapter's describe_topic_config reports the new value.",
    ["admin"],
    [{"env": {"action": "config", "args": ["--alter", "--entity-type", "topics", "--entity-name", T, "--add-config", "retention.ms=7200000"]}},
     cmd("create_client", client_id="c1"),
     adm("describe_topic_config", "c-1", {"event": {"value": "7200000"}}, topic=T, config_name="retention.ms"),
     cmd("shutdown_client", client_id="c1")], [(T, 1)]))

S.append(scenario("acl-denied-then-granted", "alice (SASL PLAIN) holds Write on another topic (so an idempotent producer may initialise, KIP-679) but not on this one: the send fails with access:broker_29 and the broker does not have the record; after the environment grants Write and Describe with AclCommand, the same producer's next send is acknowledged.",
    ["producer"],
    [{"env": {"action": "acl", "args": ["--add", "--allow-principal", "User:alice", "--operation", "Write", "--topic", "${topic:other}"]}}] +
    open_producer() + [
        {"command": {"kind": "send", "producer_id": "p1", "operation_id": "op-1", "record": rec(T, 1, "op-1", u("k"), u("denied"))},
         "expect": {"terminals": {"op-1": "definitely_not_sent"}, "terminal_codes": {"op-1": "access:broker_29"}}},
        {"env": {"action": "acl", "args": ["--add", "--allow-principal", "User:alice", "--operation", "Write", "--operation", "Describe", "--topic", T]}},
        send("op-2", rec(T, 2, "op-2", u("k"), u("granted")))] + close_producer(),
    [(T, 1)], {"security": "sasl_plaintext", "mechanism": "plain", "user": "alice"}))

# Consumer groups (§4.5), for each group protocol: the same scenario families
# with protocol classic (ids group-...) and consumer, KIP-848 (ids
# group-consumer-..., needing consumer_protocol_groups). The group id is per run.
G = "${group:g}"
PROTO = {}

def group_scenarios(proto):
    PROTO["name"] = proto
    pre = "group-" if proto == "classic" else "group-consumer-"
    GREQ = ["producer", "producer_batch", "consumer_groups"] + ([] if proto == "classic" else ["consumer_protocol_groups"])
    CAPS = ["consumer_groups"] + ([] if proto == "classic" else ["consumer_protocol_groups"])
    def gcreate(cid, client="c1", configuration=None):
        kw = dict(client_id=client, consumer_id=cid, group_id=G, topic=T, protocol=PROTO["name"])
        if configuration: kw["configuration"] = configuration
        return cmd("create_group_consumer", **kw)

    def gobserve(op, ids, expect=None):
        return cmd("observe_group_assignments", expect, operation_id=op, consumer_ids=ids, timeout_ms=30000)

    def gparts(*ps): return [{"topic": T, "partition": p} for p in ps]

    def gbatch(prefix, parts, per=1, seq=100):
        ops = []
        for p in range(parts):
            for i in range(per):
                op = "%s%d-%d" % (prefix, p, i)
                ops.append({"operation_id": op, "record": rec(T, seq + len(ops), op, u(prefix), u(op), partition=p)})
        return cmd("send_batch", producer_id="p1", operations=ops)

    def gclose(*ids): return [cmd("close_group_consumer", consumer_id=i) for i in ids]

    for n, parts in [(2, 4), (3, 6)]:
        ids = ["g%d" % (i + 1) for i in range(n)]
        S.append(scenario(pre + "%d-members" % n, "%d %s members of one group on a %d-partition topic: the observer finds the coordinator's assignments equal to the reported ones, disjoint and covering; round-robin receives get all %d records and commit them." % (n, proto, parts, 2 * parts),
            GREQ, open_producer() + [gcreate(i) for i in ids] + [gobserve("obs-1", ids), gbatch("a", parts, 2),
                cmd("group_receive_set", {"record_count": 2 * parts}, receive_id="rs-1", consumer_ids=ids, record_count=2 * parts, timeout_ms=30000)]
                + gclose(*ids) + close_producer(), [(T, parts)], timeout=120))

    S.append(scenario(pre + "member-close", "Seed case cooperativeRebalance: two members split a 2-partition topic; one closes (leaving the group) and the survivor owns partitions 0 and 1, as the coordinator confirms.",
        GREQ, open_producer() + [gcreate("g1"), gcreate("g2"), gobserve("obs-1", ["g1", "g2"])] + gclose("g2") +
            [gobserve("obs-2", ["g1"], {"event": {"assignments": [{"partitions": gparts(0, 1)}]}}),
             gbatch("a", 2), cmd("group_receive_set", {"record_count": 2}, receive_id="rs-1", consumer_ids=["g1"], record_count=2, timeout_ms=20000)]
            + gclose("g1") + close_producer(), [(T, 2)], timeout=120))

    S.append(scenario(pre + "offset-replay", "Seed case offsetReplay: a member receives and commits three records and closes; three more are written; a new member of the group starts at the committed offset and receives exactly the three uncommitted records.",
        GREQ, open_producer() + [gbatch("a", 1, 3), gcreate("g1"), gobserve("obs-1", ["g1"]),
            cmd("group_receive", {"records": ["a0-0", "a0-1", "a0-2"]}, consumer_id="g1", receive_id="r1", timeout_ms=20000)] + gclose("g1") +
            [gbatch("b", 1, 3, seq=200), gcreate("g2"), gobserve("obs-2", ["g2"]),
             cmd("group_receive", {"records": ["b0-0", "b0-1", "b0-2"]}, consumer_id="g2", receive_id="r2", timeout_ms=20000)]
            + gclose("g2") + close_producer(), [(T, 1)], timeout=120))

    def gctl(op, control, expect=None):
        return cmd("control_group_consumer", expect, operation_id=op, consumer_id="g1", control=control, timeout_ms=10000)

    S.append(scenario(pre + "controls", "pause, resume and seek on a group member: a paused partition delivers nothing until resumed; a seek to offset 0 delivers the record again.",
        GREQ + ["group_consumer_controls"], open_producer() + [gbatch("a", 2), gcreate("g1"), gobserve("obs-1", ["g1"]),
            gctl("ctl-1", {"kind": "pause", "partitions": gparts(0)}),
            cmd("group_receive", {"records": ["a1-0"]}, consumer_id="g1", receive_id="r1", timeout_ms=20000),
            cmd("group_receive", {"record_count": 0}, consumer_id="g1", receive_id="r2", timeout_ms=1000),
            gctl("ctl-2", {"kind": "resume", "partitions": gparts(0)}),
            cmd("group_receive", {"records": ["a0-0"]}, consumer_id="g1", receive_id="r3", timeout_ms=20000),
            gctl("ctl-3", {"kind": "seek", "partition": {"topic": T, "partition": 0}, "position": {"kind": "offset", "offset": 0}}),
            cmd("group_receive", {"records": ["a0-0"]}, consumer_id="g1", receive_id="r4", timeout_ms=20000)]
            + gclose("g1") + close_producer(), [(T, 2)], timeout=120))

    for n in (1, 3, 8):
        S.append(scenario(pre + "shutdown-%d" % n, "shutdown_group_consumer with %d concurrent requests: one shutdown, completed once; a later close of the same consumer is answered with group_consumer_closed." % n,
            CAPS + ["group_consumer_shutdown"],
            [cmd("create_client", client_id="c1"), gcreate("g1"), gobserve("obs-1", ["g1"]),
             cmd("shutdown_group_consumer", operation_id="sd-1", consumer_id="g1", request_count=n, timeout_ms=30000),
             cmd("close_group_consumer", consumer_id="g1"), cmd("shutdown_client", client_id="c1")], [(T, 1)], timeout=90))

    for reset, first in (("earliest", ["a0-0", "b0-0"]), ("latest", ["b0-0"])):
        S.append(scenario(pre + "offset-reset-%s" % reset, "A new group with offset_reset %s on a partition that already holds a record: the member starts %s." % (reset, "at the beginning" if reset == "earliest" else "at the end, so only the record written after it joined arrives"),
            GREQ + ["group_consumer_configuration"], open_producer() + [gbatch("a", 1),
                gcreate("g1", configuration={"offset_reset": reset, "read_isolation": "read_uncommitted"}), gobserve("obs-1", ["g1"]),
                gbatch("b", 1, seq=200),
                cmd("group_receive_set", {"record_count": len(first)}, receive_id="rs-1", consumer_ids=["g1"], record_count=len(first), timeout_ms=20000)]
                + gclose("g1") + close_producer(), [(T, 1)], timeout=90))

    S.append(scenario(pre + "read-committed", "read_isolation read_committed on a group member: non-transactional records are delivered (up to the last stable offset).",
        GREQ + ["group_consumer_configuration"], open_producer() + [gbatch("a", 1, 2),
            gcreate("g1", configuration={"offset_reset": "earliest", "read_isolation": "read_committed"}), gobserve("obs-1", ["g1"]),
            cmd("group_receive_set", {"record_count": 2}, receive_id="rs-1", consumer_ids=["g1"], record_count=2, timeout_ms=20000)]
            + gclose("g1") + close_producer(), [(T, 1)], timeout=90))

# --- share groups (KIP-932, §4.6/§5.5) ---
G = "${group:g}"

def share_conf(*kv):
    return {"env": {"action": "config", "args": ["--alter", "--entity-type", "groups", "--entity-name", G,
                                                 "--add-config", ",".join(("share.auto.offset.reset=earliest",) + kv)]}}

def open_share(consumer="s1", configuration=None):
    kw = dict(client_id="c1", consumer_id=consumer, group_id=G, topic=T, membership_timeout_ms=30000, close_timeout_ms=10000)
    if configuration:
        kw["configuration"] = configuration
    return cmd("create_share_consumer", **kw)

def srecv(rid, ops=None, counts=None, consumer="s1", timeout=10000, count=None):
    exp = {}
    if ops is not None:
        exp["records"] = ops
    if counts is not None:
        exp["event"] = {"records": [{"delivery_count": c} for c in counts]}
    if count is not None:
        exp["record_count"] = count
    return cmd("share_receive", exp or None, consumer_id=consumer, receive_id=rid, timeout_ms=timeout)

def sack(rid, aid, ds, consumer="s1", success=True):
    return cmd("share_acknowledge", {"event": {"success": success, "dispositions": ds}}, consumer_id=consumer, receive_id=rid,
               acknowledgement_id=aid, dispositions=ds, timeout_ms=10000)

def sclose(consumer="s1"):
    return cmd("close_share_consumer", {"event": {"success": True}}, consumer_id=consumer)

def share_produce(n):
    ops = [{"operation_id": "op-%d" % i, "record": rec(T, i, "op-%d" % i, u("k%d" % i), u("v%d" % i))} for i in range(1, n + 1)]
    return open_producer() + [cmd("send_batch", {"terminals": {o["operation_id"]: "acknowledged" for o in ops}}, producer_id="p1", operations=ops)]

OPS3 = ["op-1", "op-2", "op-3"]
S.append(scenario("share-accept-all", "Three records in one batch; a share consumer receives them with delivery count 1 and accepts them; the broker's share-partition start offset moves past them; the next receive is empty; close succeeds.",
    ["producer", "producer_batch", "share_consumer"],
    share_produce(3) + [share_conf(), open_share(),
        srecv("r1", OPS3, [1, 1, 1]), sack("r1", "a1", ["accept"] * 3),
        srecv("r2", count=0, timeout=2000), sack("r2", "a2", []),
        sclose()] + close_producer(), [(T, 1)]))

S.append(scenario("share-release-redelivery", "Released records come back to the same member with delivery count 2; two are then accepted and one released again, which the observer's own share consumer (franz-go) must then be delivered once the member has left.",
    ["producer", "producer_batch", "share_consumer"],
    share_produce(3) + [share_conf(), open_share(),
        srecv("r1", OPS3, [1, 1, 1]), sack("r1", "a1", ["release"] * 3),
        srecv("r2", OPS3, [2, 2, 2]), sack("r2", "a2", ["accept", "release", "accept"]),
        sclose()] + close_producer(), [(T, 1)]))

S.append(scenario("share-reject-never-redelivered", "A rejected record is archived: it is never delivered again (the runner fails any redelivery of a finished record); its neighbours are accepted.",
    ["producer", "producer_batch", "share_consumer"],
    share_produce(3) + [share_conf(), open_share(),
        srecv("r1", OPS3, [1, 1, 1]), sack("r1", "a1", ["accept", "reject", "accept"]),
        srecv("r2", count=0, timeout=3000), sack("r2", "a2", []),
        sclose()] + close_producer(), [(T, 1)]))

S.append(scenario("share-drop-lock-expiry", "A dropped batch is never acknowledged: after the group's 2 s acquisition lock expires the records come back with delivery count 2.",
    ["producer", "producer_batch", "share_consumer"],
    share_produce(2) + [share_conf("share.record.lock.duration.ms=2000"), open_share(),
        srecv("r1", ["op-1", "op-2"], [1, 1]),
        cmd("drop_share_batch", {"event": {"receive_id": "r1"}}, consumer_id="s1", receive_id="r1"),
        srecv("r2", ["op-1", "op-2"], [2, 2], timeout=20000), sack("r2", "a1", ["accept", "accept"]),
        sclose()] + close_producer(), [(T, 1)], timeout=120))

S.append(scenario("share-max-records-batch-size", "configuration max_records 2, batch_size 2: five records arrive 2, 2, 1 (KIP-1206 record limit), none lost or repeated.",
    ["producer", "producer_batch", "share_consumer", "share_consumer_configuration"],
    share_produce(5) + [share_conf(), open_share(configuration={"max_records": 2, "batch_size": 2}),
        srecv("r1", ["op-1", "op-2"]), sack("r1", "a1", ["accept"] * 2),
        srecv("r2", ["op-3", "op-4"]), sack("r2", "a2", ["accept"] * 2),
        srecv("r3", ["op-5"]), sack("r3", "a3", ["accept"]),
        sclose()] + close_producer(), [(T, 1)]))

S.append(scenario("share-close-with-held", "Closing a member that holds an unacknowledged batch releases it: a new member of the group receives the records with delivery count 2 and accepts them.",
    ["producer", "producer_batch", "share_consumer"],
    share_produce(3) + [share_conf(), open_share(),
        srecv("r1", OPS3, [1, 1, 1]), sclose(),
        open_share("s2"), srecv("r2", OPS3, [2, 2, 2], consumer="s2"), sack("r2", "a1", ["accept"] * 3, consumer="s2"),
        sclose("s2")] + close_producer(), [(T, 1)]))
# Transactions (§4.8): every staged record is checked by the observer under
# read_uncommitted (present at its offset) and read_committed (visible only
# when its transaction committed).
TX = "${txn:tx}"
def txn_producer(producer="tp1", client="c1", tid=TX):
    return cmd("create_transactional_producer", client_id=client, producer_id=producer, transactional_id=tid,
               transaction_timeout_ms=30000, initialization_timeout_ms=30000)
def txn_ops(prefix, seq0, n, topic=T, partitions=1):
    return [{"operation_id": "%s-%d" % (prefix, i), "record": rec(topic, seq0 + i, "%s-%d" % (prefix, i), u("k%d" % i), u("%s-%d" % (prefix, i)), partition=i % partitions)} for i in range(n)]
def execute(tid, ops, disposition, producer="tp1"):
    return cmd("execute_transaction", {"terminals": {o["operation_id"]: "transaction_staged" for o in ops}, "event": {"disposition": disposition}},
               producer_id=producer, transaction_id=tid, operations=ops, disposition=disposition, timeout_ms=30000)

S.append(scenario("txn-commit", "A transactional producer stages 5 records over 2 partitions and commits: each terminal is transaction_staged with its offset; the observer finds every record there and read_committed shows them.",
    ["transactions"],
    [cmd("create_client", client_id="c1"), txn_producer(), execute("x1", txn_ops("c", 1, 5, partitions=2), "commit"),
     cmd("close_transactional_producer", producer_id="tp1"), cmd("shutdown_client", client_id="c1")], [(T, 2)]))

S.append(scenario("txn-abort-then-commit", "Abort a transaction of 3 records, then commit one of 2 on the same producer: the aborted records are on the broker (read_uncommitted) but never visible to read_committed; the committed ones are.",
    ["transactions"],
    [cmd("create_client", client_id="c1"), txn_producer(), execute("x1", txn_ops("a", 1, 3), "abort"),
     execute("x2", txn_ops("c", 10, 2), "commit"),
     cmd("close_transactional_producer", producer_id="tp1"), cmd("shutdown_client", client_id="c1")], [(T, 1)]))

S.append(scenario("txn-many-transactions", "Ten transactions of 1..31 records alternating commit and abort on one producer (transactions v2 bumps the epoch at each end): every staged record is where the adapter says, visible to read_committed exactly when its transaction committed.",
    ["transactions"],
    [cmd("create_client", client_id="c1"), txn_producer()] +
    [execute("x%d" % i, txn_ops("t%d" % i, 100 * i, [1, 31, 7, 2, 15, 3, 31, 1, 4, 9][i], partitions=3), "commit" if i % 2 == 0 else "abort") for i in range(10)] +
    [cmd("close_transactional_producer", producer_id="tp1"), cmd("shutdown_client", client_id="c1")], [(T, 3)], timeout=300))

fence_op = {"operation_id": "f-1", "record": rec(T, 1, "f-1", u("k"), u("fenced-write"))}
S.append(scenario("txn-fence", "Two producers with one transactional id: the old producer stages a record, the replacement initialises with the same id, the old commit fails in the fenced family and its record stays invisible to read_committed; the replacement then commits its own.",
    ["transactions"],
    [cmd("create_client", client_id="c1"), cmd("create_client", client_id="c2"), txn_producer(),
     cmd("fence_transaction", {"terminals": {"f-1": "transaction_staged"}},
         producer_id="tp1", transaction_id="x1", operation=fence_op, replacement_client_id="c2", replacement_producer_id="tp2",
         transactional_id=TX, transaction_timeout_ms=30000, initialization_timeout_ms=30000, timeout_ms=30000),
     execute("x2", txn_ops("n", 10, 2), "commit", producer="tp2"),
     cmd("close_transactional_producer", producer_id="tp1"), cmd("close_transactional_producer", producer_id="tp2"),
     cmd("shutdown_client", client_id="c1"), cmd("shutdown_client", client_id="c2")], [(T, 1)]))

S.append(scenario("txn-with-plain-producer", "A plain producer and a transactional producer share a client and write the same partition: plain records are acknowledged, the aborted transaction's records stay invisible to read_committed.",
    ["transactions", "producer"],
    [cmd("create_client", client_id="c1"), txn_producer(), cmd("create_producer", client_id="c1", producer_id="p1"),
     send("op-1", rec(T, 1, "op-1", u("k"), u("plain-before"))),
     execute("x1", txn_ops("a", 10, 4), "abort"),
     send("op-2", rec(T, 2, "op-2", u("k"), u("plain-after"))),
     execute("x2", txn_ops("c", 20, 3), "commit"),
     cmd("close_producer", producer_id="p1"), cmd("close_transactional_producer", producer_id="tp1"), cmd("shutdown_client", client_id="c1")], [(T, 1)]))
# Consume-transform-produce (§4.8 execute_transactional_transform): a
# classic group member receives the inputs of T; outputs go to O in the
# transaction with the batch's checkpoint. The runner checks the outputs
# under read_committed and the group's committed offset with the observer.
O = "${topic:out}"
def transform(tid, consumer, ops, disposition, inputs, next_offset):
    return cmd("execute_transactional_transform",
               {"terminals": {o["operation_id"]: "transaction_staged" for o in ops}, "records": inputs,
                "event": {"disposition": disposition, "topic": T, "partition": 0, "next_offset": next_offset,
                          "group_epoch": {"kind": "classic"}}},
               producer_id="tp1", consumer_id=consumer, transaction_id=tid, operations=ops, disposition=disposition, timeout_ms=30000)
def transform_setup():
    ins = [{"operation_id": "in-%d" % i, "record": rec(T, 1 + i, "in-%d" % i, u("k"), u("in-%d" % i))} for i in range(3)]
    return open_producer() + [cmd("send_batch", producer_id="p1", operations=ins), txn_producer(),
        cmd("create_group_consumer", client_id="c1", consumer_id="g1", group_id="${group:g}", topic=T, protocol="classic"),
        cmd("observe_group_assignments", operation_id="obs-1", consumer_ids=["g1"], timeout_ms=30000)]
INS = ["in-0", "in-1", "in-2"]
TREQ = ["transactions", "consumer_groups", "producer", "producer_batch"]
def transform_close(*ids):
    return [cmd("close_group_consumer", consumer_id=i) for i in ids] + [cmd("close_transactional_producer", producer_id="tp1")] + close_producer()

S.append(scenario("txn-transform-commit", "Seed case eosOffsets (commit): a group member receives three records and a transactional transform stages two outputs with the batch's checkpoint and commits: the outputs are visible to read_committed and the group's committed offset is 3.",
    TREQ, transform_setup() + [transform("x1", "g1", txn_ops("o", 10, 2, topic=O), "commit", INS, 3)] + transform_close("g1"),
    [(T, 1), (O, 1)], timeout=120))

S.append(scenario("txn-transform-abort", "Seed case eosOffsets (abort): the transform of three records is aborted: no output is visible to read_committed and the group's offset is not moved; a new member of the group receives the same three records again and commits its transform.",
    TREQ, transform_setup() + [transform("x1", "g1", txn_ops("a", 10, 2, topic=O), "abort", INS, 3)] +
        [cmd("close_group_consumer", consumer_id="g1"),
         cmd("create_group_consumer", client_id="c1", consumer_id="g2", group_id="${group:g}", topic=T, protocol="classic"),
         cmd("observe_group_assignments", operation_id="obs-2", consumer_ids=["g2"], timeout_ms=30000),
         transform("x2", "g2", txn_ops("c", 20, 1, topic=O), "commit", INS, 3)] + transform_close("g2"),
    [(T, 1), (O, 1)], timeout=120))
# Authorization denials beyond produce (issue 21): alice (SASL PLAIN) is
# refused one resource and granted a sibling of the same kind; each denial
# has its exact §6 code, and the sibling works in the same session. Each
# AclCommand grant (and the runner's --list until the broker shows it) is a
# JVM start, 10-30 s on a loaded machine: hence the longer timeouts.
ALICE = {"security": "sasl_plaintext", "mechanism": "plain", "user": "alice"}
def allow(kind, name, *ops):
    args = ["--add", "--allow-principal", "User:alice"]
    for o in ops: args += ["--operation", o]
    return {"env": {"action": "acl", "args": args + ["--" + kind, name]}}
OK = "${topic:ok}"; OK2 = "${topic:ok2}"; NO = "${topic:no}"

S.append(scenario("acl-fetch-denied", "alice may Describe topic t (holding a record) but not Read it, and may Read and Write topic ok: an assigned consumer's receive of t fails with access:broker_29 (TOPIC_AUTHORIZATION_FAILED); a second consumer of the same client receives the record alice wrote to ok.",
    ["assigned_consumer", "producer"],
    [allow("topic", T, "Describe"), allow("topic", OK, "Read", "Write", "Describe"),
     {"env": {"action": "produce", "records": [rec(T, 1, "t-1", u("k"), u("unreadable"))]}}] +
    open_producer() + [send("ok-1", rec(OK, 2, "ok-1", u("k"), u("readable"))), cmd("close_producer", producer_id="p1"),
     cmd("create_assigned_consumer", client_id="c1", consumer_id="k1"),
     cmd("assign_beginning", consumer_id="k1", topic=T, partition=0),
     cmd("receive", {"error": "access:broker_29"}, consumer_id="k1", receive_id="r1", timeout_ms=20000),
     cmd("create_assigned_consumer", client_id="c1", consumer_id="k2"),
     cmd("assign_beginning", consumer_id="k2", topic=OK, partition=0),
     cmd("receive", {"records": ["ok-1"]}, consumer_id="k2", receive_id="r2", timeout_ms=20000),
     cmd("close_assigned_consumer", consumer_id="k2"), cmd("close_assigned_consumer", consumer_id="k1"),
     cmd("shutdown_client", client_id="c1")], [(T, 1), (OK, 1)], ALICE, timeout=240))

GNO = "${group:no}"; GOK = "${group:ok}"
for proto in ("classic", "consumer"):
    S.append(scenario("acl-group-denied-%s" % proto, "alice may Read and Write topic t and Read group ok, not group no (%s protocol): the member of no fails group_receive with broker:broker_30 (GROUP_AUTHORIZATION_FAILED) and admin offset commit and fetch for no fail the same way; the member of group ok on the same client receives and commits the record, and once it left, an admin commit for ok succeeds." % proto,
        ["consumer_groups", "admin", "producer"] + ([] if proto == "classic" else ["consumer_protocol_groups"]),
        [allow("topic", T, "Read", "Write", "Describe"), allow("group", GOK, "Read", "Describe")] +
        open_producer() + [send("t-1", rec(T, 1, "t-1", u("k"), u("v"))), cmd("close_producer", producer_id="p1"),
         cmd("create_group_consumer", client_id="c1", consumer_id="g1", group_id=GNO, topic=T, protocol=proto),
         cmd("group_receive", {"error": "broker:broker_30"}, consumer_id="g1", receive_id="r1", timeout_ms=20000),
         cmd("create_group_consumer", client_id="c1", consumer_id="g2", group_id=GOK, topic=T, protocol=proto),
         cmd("observe_group_assignments", operation_id="obs-1", consumer_ids=["g2"], timeout_ms=30000),
         cmd("group_receive", {"records": ["t-1"], "event": {"committed": True}}, consumer_id="g2", receive_id="r2", timeout_ms=20000),
         cmd("close_group_consumer", consumer_id="g2"),
         adm("alter_consumer_group_offset", "a-1", {"error": "broker:broker_30"}, group_id=GNO, topic=T, partition=0, offset=1),
         adm("list_consumer_group_offsets", "a-2", {"error": "broker:broker_30"}, group_id=GNO, topic=T, partition=0, require_stable=False),
         adm("alter_consumer_group_offset", "a-3", group_id=GOK, topic=T, partition=0, offset=0),
         adm("list_consumer_group_offsets", "a-4", {"event": {"offset": 0}}, group_id=GOK, topic=T, partition=0, require_stable=False),
         cmd("close_group_consumer", consumer_id="g1"),
         cmd("shutdown_client", client_id="c1")], [(T, 1)], ALICE, timeout=240))

TNO = "${txn:no}"; TOK = "${txn:ok}"
S.append(scenario("acl-txn-denied", "alice may Write topic t and transactional id ok, not transactional id no: creating (initialising) a transactional producer for no fails with broker:broker_53 (TRANSACTIONAL_ID_AUTHORIZATION_FAILED); a producer for ok on the same client then commits two records the observer finds under read_committed.",
    ["transactions"],
    [allow("topic", T, "Write", "Describe"), allow("transactional-id", TOK, "Write", "Describe"),
     cmd("create_client", client_id="c1"),
     cmd("create_transactional_producer", {"error": "broker:broker_53"}, client_id="c1", producer_id="tp1", transactional_id=TNO,
         transaction_timeout_ms=30000, initialization_timeout_ms=30000),
     txn_producer("tp2", tid=TOK), execute("x1", txn_ops("c", 1, 2), "commit", producer="tp2"),
     cmd("close_transactional_producer", producer_id="tp2"), cmd("shutdown_client", client_id="c1")], [(T, 1)], ALICE, timeout=240))

S.append(scenario("acl-admin-create-denied", "alice may Create topics ok and ok2 but not topic no (nor the cluster): create_topic no fails with broker:broker_29 (TOPIC_AUTHORIZATION_FAILED, per topic: Kafka answers CLUSTER_AUTHORIZATION_FAILED for CreateTopics never); create_topic ok succeeds; a batch of ok2 and no reports ok2 created and no broker:broker_29.",
    ["admin"],
    [allow("topic", OK, "Create", "Describe"), allow("topic", OK2, "Create", "Describe"),
     cmd("create_client", client_id="c1"),
     adm("create_topic", "a-1", {"error": "broker:broker_29"}, topic=NO, partitions=1, replication_factor=1, validate_only=False),
     adm("create_topic", "a-2", topic=OK, partitions=1, replication_factor=1, validate_only=False),
     adm("create_topics_batch", "a-3", {"event": {"outcomes": [{"topic": OK2, "error_code": None}, {"topic": NO, "error_code": "broker:broker_29"}]}},
         topics=[{"topic": OK2, "partitions": 1, "replication_factor": 1}, {"topic": NO, "partitions": 1, "replication_factor": 1}]),
     cmd("shutdown_client", client_id="c1")], env=ALICE, timeout=240))

# Faults on purpose (issue 23): the adapter reaches the broker through
# testlab/faultproxy; each fault is applied and removed as a named pair.
def fault(name, kind, **kw):
    return {"env": {"action": "fault", "name": name, "fault": dict(kind=kind, **kw)}}
def unfault(name):
    return {"env": {"action": "unfault", "name": name}}
PROXIED = {"proxied": True}
FAULT_REQ = ["producer", "producer_configuration"]
def fconf(delivery_ms):
    c = conf(retries=0, backoff=0, linger=0)
    c["delivery_timeout_ms"] = delivery_ms
    return c
def faulted(sid, desc, faults, expect, conf_ms=10000, before=(), after=(), probe=False):
    # op-0, from a retrying producer, waits out the new topic's leader
    # election (NOT_LEADER_OR_FOLLOWER would fail p1's unretried op-1).
    # probe: op-1b, sent after the faults with no expectation of its own
    # (the observer's log judges whatever certainty it reports), makes the
    # client find out that its connection is gone before op-2 is sent.
    steps = open_producer("c0", "p0") + [send("op-0", rec(T, 1, "op-0", u("k"), u("warm-up")), producer="p0")] + close_producer("c0", "p0")
    steps += open_producer(configuration=fconf(conf_ms)) + [send("op-1", rec(T, 2, "op-1", u("k"), u("before the fault")))]
    steps += [fault(n, k, **kw) for n, k, kw in faults] + list(before)
    seq = 3
    if probe:
        steps += [{"command": {"kind": "send", "producer_id": "p1", "operation_id": "op-1b",
                               "record": rec(T, seq, "op-1b", u("k"), u("probe: finds the cut connection"))}}]
        seq += 1
    steps += [send("op-2", rec(T, seq, "op-2", u("k"), u("under the fault")), expect=expect)]
    steps += list(after) + [unfault(n) for n, _, _ in reversed(faults)]
    steps += [send("op-3", rec(T, seq + 1, "op-3", u("k"), u("after the fault")))] + close_producer()
    S.append(scenario(sid, desc, FAULT_REQ, steps, [(T, 1)], PROXIED))

faulted("fault-cut-after-produce-written",
    "No retries. The proxy forwards op-2's whole Produce request, then cuts the connection: the broker may have written it, so the terminal must be possibly_sent (the observer's log decides); op-3, on a new connection, is acknowledged.",
    [("cut", "cut_frame", {"dir": "to_broker", "api": 0, "bytes": -1})], "possibly_sent")
faulted("fault-cut-response-partial",
    "No retries. The proxy forwards 6 bytes of op-2's Produce response, then cuts: possibly_sent; op-3 acknowledged.",
    [("half", "cut_frame", {"dir": "to_client", "api": 0, "bytes": 6})], "possibly_sent")
faulted("fault-cut-before-produce-written",
    "No retries. Every connection is cut and new ones refused; op-1b (any certainty the observer confirms) shows the client its connection is gone, so op-2 needs a new one, which is refused: no byte of it can reach the broker, so definitely_not_sent (the observer confirms its absence); op-3 acknowledged once connections are allowed again. (Without op-1b a loaded client may write op-2 to the cut socket before its reader sees the close: possibly_sent, honestly.)",
    [("refuse", "refuse", {}), ("cut", "cut_all", {})], "definitely_not_sent", probe=True)
faulted("fault-wrong-correlation-id",
    "No retries. op-2's Produce response carries another correlation ID: the client must fail that connection's requests as possibly_sent (the broker has the record); op-3 on a new connection is acknowledged.",
    [("corr", "wrong_correlation", {"api": 0})], "possibly_sent")
faulted("fault-replayed-response",
    "No retries. The connection's previous response is replayed before op-2's Produce response: a client taking it as op-2's answer would acknowledge op-2 at op-1's offset; it must fail possibly_sent instead; op-3 acknowledged.",
    [("replay", "replay", {"api": 0})], "possibly_sent")
faulted("fault-stall-deadline",
    "No retries, delivery timeout 2 s. op-2's Produce response is stalled 3 s: the client must honour the deadline (possibly_sent, not the late acknowledgement); after the stall op-3 is acknowledged.",
    [("stall", "stall", {"dir": "to_client", "api": 0, "delay_ms": 3000})], "possibly_sent", conf_ms=2000)
faulted("fault-blackhole-then-cut",
    "No retries, delivery timeout 2 s. The proxy swallows op-2's request: possibly_sent at the deadline; the proxy then cuts every connection and op-3, on a new one, is acknowledged.",
    [("hole", "blackhole", {})], "possibly_sent", conf_ms=2000, after=[fault("cut", "cut_all"), unfault("cut")])
faulted("fault-delay-acknowledged",
    "Requests and responses each delayed 300 ms: slower, never failed; op-2 is acknowledged.",
    [("slow-req", "delay", {"dir": "to_broker", "delay_ms": 300}), ("slow-resp", "delay", {"dir": "to_client", "delay_ms": 300})], "acknowledged")

for proto in ("classic", "consumer"):
    group_scenarios(proto)

for s in S:
    if not s["setup"]["topics"]:
        del s["setup"]
    with open(os.path.join(OUT, s["id"] + ".json"), "w") as f:
        json.dump(s, f, indent=2)
        f.write("\n")
print(len(S), "scenarios")
