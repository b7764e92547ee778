package faultcheck

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/testlab/invariant"
)

// javaMember is one of Apache's VerifiableConsumer (group.protocol=consumer,
// verbose, manual commitSync after every poll) in groupLoad's group,
// beside gregor's members: its events feed the same ownership intervals,
// deliveries, Reads and accepted commits the group is judged by. It runs as
// java/LostReportingConsumer.java, the release's VerifiableConsumer with
// onPartitionsLost overridden: the stock tool leaves it to the interface
// default, which calls onPartitionsRevoked, so a fenced member printed
// "partitions_revoked" and its late-learned loss was judged a handover (the
// 1-hour soak of 2026-12-02 counted such an overlap as a double ownership).
//   - partitions_assigned starts an interval per partition,
//     partitions_revoked ends it (a handover: the listener prints it when
//     called and returns at once, before the member acknowledges the
//     revocation), partitions_lost ends it as Lost (fenced: the overlap with
//     the partition's next owner is a zombie overlap, as for gregor's Lost);
//   - record_data lines are the records of the next records_consumed,
//     which completes the poll (one Read per partition);
//   - offsets_committed with success is an accepted commit, begun at the
//     poll's completion (the tool commits right after printing it).
type javaMember struct {
	name    string
	gl      *groupLoad
	proc    *javaProc
	cont    map[invariant.TP]bool
	pending []consumer.Record // record_data since the last records_consumed
	polled  time.Time         // the last records_consumed
}

// lostReportingConsumer is the Java member's source file (run by java's
// source-file mode against the release's jars), relative to this package.
const lostReportingConsumer = "java/LostReportingConsumer.java"

// startJava starts a Java member named name.
func (gl *groupLoad) startJava(name string) (*javaMember, error) {
	jm := &javaMember{name: name, gl: gl, cont: map[invariant.TP]bool{}}
	cfg, err := gl.tools.writeProps(name, map[string]string{"client.id": "java-" + name, "request.timeout.ms": "10000"})
	if err != nil {
		return nil, err
	}
	src, err := filepath.Abs(lostReportingConsumer)
	if err != nil {
		return nil, err
	}
	p, err := gl.tools.start(name, src, jm.onEvent, strings.Join(gl.boot, ","), gl.topic, gl.group, cfg)
	if err != nil {
		return nil, err
	}
	jm.proc = p
	gl.mu.Lock()
	gl.javaStarted++
	gl.mu.Unlock()
	return jm, nil
}

// stopJava stops jm (SIGTERM: the tool closes its consumer, leaving the
// group) and ends whatever it still owned.
func (gl *groupLoad) stopJava(jm *javaMember) {
	err := jm.proc.stop(60 * time.Second)
	gl.mu.Lock()
	defer gl.mu.Unlock()
	if err != nil {
		gl.closeErr = append(gl.closeErr, err.Error())
	}
	for _, i := range gl.open[jm.name] {
		gl.ivs[i].end = time.Now()
	}
	delete(gl.open, jm.name)
}

func (jm *javaMember) onEvent(e javaEvent) {
	gl := jm.gl
	switch e.Name {
	case "partitions_assigned", "partitions_revoked", "partitions_lost":
		kind := map[string]consumer.AssignmentEventKind{"partitions_assigned": consumer.Assigned,
			"partitions_revoked": consumer.Revoking, "partitions_lost": consumer.Lost}[e.Name]
		gl.ownershipEvent(jm.name, kind, e.At(), e.Partitions)
		for _, p := range e.Partitions {
			delete(jm.cont, invariant.TP{Topic: p.Topic, Partition: p.Partition})
		}
	case "record_data":
		jm.pending = append(jm.pending, consumer.Record{Topic: e.Topic, Partition: e.Partition, Offset: e.Offset, Value: []byte(e.Value)})
	case "records_consumed":
		jm.polled = e.At()
		reads, _ := readsOf(jm.pending, invariant.Read{Reader: jm.name, Completed: e.At()}, jm.cont)
		gl.delivered1(jm.name, reads, e.At())
		jm.pending = jm.pending[:0]
	case "offsets_committed":
		gl.mu.Lock()
		defer gl.mu.Unlock()
		if !e.Success {
			gl.commitErr++
			return
		}
		for _, o := range e.Offsets {
			tp := invariant.TP{Topic: o.Topic, Partition: o.Partition}
			gl.commits = append(gl.commits, groupCommit{member: jm.name, tp: tp, offset: o.Offset, at: jm.polled})
			if o.Offset > gl.hw[tp] {
				gl.hw[tp] = o.Offset
			}
		}
	}
}

// ownershipEvent starts (Assigned) or ends (Revoking, Lost) member's
// intervals of ps at at.
func (gl *groupLoad) ownershipEvent(member string, kind consumer.AssignmentEventKind, at time.Time, ps []javaPartSpan) {
	gl.mu.Lock()
	defer gl.mu.Unlock()
	gl.events[kind]++
	own := gl.open[member]
	if own == nil {
		own = map[invariant.TP]int{}
		gl.open[member] = own
	}
	for _, p := range ps {
		tp := invariant.TP{Topic: p.Topic, Partition: p.Partition}
		if kind == consumer.Assigned {
			own[tp] = len(gl.ivs)
			gl.ivs = append(gl.ivs, ownership{member: member, tp: tp, start: at})
		} else if i, ok := own[tp]; ok {
			gl.ivs[i].end, gl.ivs[i].lost = at, kind == consumer.Lost
			delete(own, tp)
		}
	}
}

// delivered1 records member's reads (delivered at at).
func (gl *groupLoad) delivered1(member string, reads []invariant.Read, at time.Time) {
	gl.mu.Lock()
	defer gl.mu.Unlock()
	gl.reads = append(gl.reads, reads...)
	for _, rd := range reads {
		d := gl.delivered[rd.TP]
		if d == nil {
			d = map[int64]int{}
			gl.delivered[rd.TP] = d
		}
		for _, r := range rd.Records {
			d[r.Offset]++
			gl.javaDelivered++
			if hw := gl.hw[rd.TP]; r.Offset < hw {
				gl.early = append(gl.early, earlyDelivery{member: member, tp: rd.TP, offset: r.Offset, at: at, accepted: hw})
			}
		}
	}
}

// javaName is the i-th Java member's name.
func javaName(i int) string { return fmt.Sprintf("j%d", i) }
