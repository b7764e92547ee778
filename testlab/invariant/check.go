package invariant

import (
	"cmp"
	"fmt"
	"slices"
	"time"
)

// Rule names one invariant.
type Rule string

// The invariants Check knows (see the package documentation).
const (
	RuleAckedLost      Rule = "acked_record_lost"
	RuleDuplicate      Rule = "idempotent_duplicate"
	RuleOrder          Rule = "producer_order"
	RuleTxnAtomic      Rule = "transaction_atomicity"
	RuleOwnership      Rule = "partition_owned_twice"
	RuleStableCoverage Rule = "stable_group_unassigned"
	RuleCommitRegress  Rule = "committed_offset_decreased"
	RuleEpochRegress   Rule = "leader_epoch_decreased"
	RuleFencedLeader   Rule = "data_from_fenced_leader"

	// The anomalies of Jepsen's Kafka workload (see the package
	// documentation).
	RuleLostWrite           Rule = "lost_write"
	RuleUnseen              Rule = "unseen"
	RuleInconsistentOffsets Rule = "inconsistent_offsets"
	RuleAbortedRead         Rule = "aborted_read"
	RulePollSkip            Rule = "poll_skip"
	RuleNonmonotonicPoll    Rule = "nonmonotonic_poll"
	RuleInternal            Rule = "internal"
	RuleG0                  Rule = "G0"
	RuleG1a                 Rule = "G1a"
	RuleG1b                 Rule = "G1b"
	RuleG1c                 Rule = "G1c"
	// RuleNonmonotonicSend is Jepsen's nonmonotonic-send: RuleOrder.
	RuleNonmonotonicSend = RuleOrder
)

// Rules lists every Rule in the order Check reports them.
var Rules = []Rule{RuleAckedLost, RuleDuplicate, RuleOrder, RuleTxnAtomic, RuleOwnership,
	RuleStableCoverage, RuleCommitRegress, RuleEpochRegress, RuleFencedLeader,
	RuleLostWrite, RuleUnseen, RuleInconsistentOffsets, RuleAbortedRead, RulePollSkip,
	RuleNonmonotonicPoll, RuleInternal, RuleG0, RuleG1a, RuleG1b, RuleG1c}

// Violation is one broken promise.
type Violation struct {
	Rule Rule
	TP   TP
	// Detail says what was seen, with offsets, members or epochs.
	Detail string
	// Members names the group members involved, for the rules about
	// members (partition_owned_twice); nil for the others.
	Members []string
}

// String returns "rule topic[p]: detail".
func (v Violation) String() string { return fmt.Sprintf("%s %s: %s", v.Rule, v.TP, v.Detail) }

// Check returns every violation in h, grouped by rule in the order of Rules;
// nil when h keeps every promise.
func Check(h *History) []Violation {
	var out []Violation
	for _, f := range []func(*History) []Violation{ackedLost, duplicates, order, txnAtomic,
		ownership, stableCoverage, commitRegress, epochs, inconsistentOffsets} {
		out = append(out, f(h)...)
	}
	ix := newIndex(h)
	for _, f := range []func(*History, *index) []Violation{lostUnseen, abortedReads, polls,
		intermediateReads, transactions} {
		out = append(out, f(h, ix)...)
	}
	slices.SortStableFunc(out, func(a, b Violation) int { return cmp.Compare(ruleRank(a.Rule), ruleRank(b.Rule)) })
	return out
}

func violation(r Rule, tp TP, format string, args ...any) Violation {
	return Violation{Rule: r, TP: tp, Detail: fmt.Sprintf(format, args...)}
}

// ackedLost: every acknowledged offset at or above the final log start holds
// the acknowledged record.
func ackedLost(h *History) []Violation {
	logs := map[TP]*Log{}
	for i := range h.Logs {
		logs[h.Logs[i].TP] = &h.Logs[i]
	}
	var out []Violation
	for _, s := range h.Sends {
		l := logs[s.TP]
		if !s.Acked || s.Offset < 0 || l == nil || s.Offset < l.Start {
			continue
		}
		i, found := slices.BinarySearchFunc(l.Records, s.Offset, func(r LogRecord, o int64) int { return cmp.Compare(r.Offset, o) })
		switch {
		case !found:
			out = append(out, violation(RuleAckedLost, s.TP, "%s's record %q acknowledged at offset %d is not in the log [%d, %d)", s.Producer, s.ID, s.Offset, l.Start, l.End))
		case s.ID != "" && l.Records[i].ID != "" && l.Records[i].ID != s.ID:
			out = append(out, violation(RuleAckedLost, s.TP, "%s's record %q acknowledged at offset %d, the log holds %q there", s.Producer, s.ID, s.Offset, l.Records[i].ID))
		}
	}
	return out
}

// duplicates: a record ID sent by an idempotent producer is seen (in the
// final log, by a reader or in an acknowledgement) at no more distinct
// offsets than it was sent.
func duplicates(h *History) []Violation {
	type dup struct {
		sent int
		idem bool
		offs []int64 // distinct offsets seen
	}
	by := map[tpID]*dup{}
	for _, s := range h.Sends {
		if s.ID == "" {
			continue
		}
		k := tpID{s.TP, s.ID}
		d := by[k]
		if d == nil {
			d = &dup{}
			by[k] = d
		}
		d.sent++
		d.idem = d.idem || s.Idempotent
	}
	var keys []tpID
	note := func(tp TP, id string, off int64) {
		d := by[tpID{tp, id}]
		if d == nil || !d.idem || off < 0 || slices.Contains(d.offs, off) {
			return
		}
		if d.offs == nil {
			keys = append(keys, tpID{tp, id})
		}
		d.offs = append(d.offs, off)
	}
	for _, l := range h.Logs {
		for _, r := range l.Records {
			note(l.TP, r.ID, r.Offset)
		}
	}
	for _, r := range h.Reads {
		for _, rec := range r.Records {
			note(r.TP, rec.ID, rec.Offset)
		}
	}
	for _, s := range h.Sends {
		if s.Acked {
			note(s.TP, s.ID, s.Offset)
		}
	}
	var out []Violation
	for _, k := range keys {
		if d := by[k]; len(d.offs) > d.sent {
			slices.Sort(d.offs)
			out = append(out, violation(RuleDuplicate, k.tp, "record %q sent %d time(s) by an idempotent producer is at %d offsets, %v", k.id, d.sent, len(d.offs), d.offs))
		}
	}
	return out
}

// order: one producer's acknowledged offsets of a partition increase in send
// order.
func order(h *History) []Violation {
	type key struct {
		producer string
		tp       TP
	}
	last := map[key]Send{}
	var out []Violation
	for _, s := range h.Sends {
		if !s.Acked || s.Offset < 0 {
			continue
		}
		k := key{s.Producer, s.TP}
		if p, ok := last[k]; ok && s.Offset <= p.Offset {
			out = append(out, violation(RuleOrder, s.TP, "%s sent %q after %q but it was acknowledged at offset %d, not after %d", s.Producer, s.ID, p.ID, s.Offset, p.Offset))
		}
		last[k] = s
	}
	return out
}

// txnAtomic: read_committed readers see every record of a committed
// transaction in the range they read and none of any other transaction.
func txnAtomic(h *History) []Violation {
	outcome := map[string]Outcome{}
	for _, t := range h.Transactions {
		outcome[t.ID] = t.Outcome
	}
	byOffset := map[tpOff]Send{}
	byID := map[string]Send{}
	committed := map[TP][]Send{} // acknowledged sends of committed transactions
	for _, s := range h.Sends {
		if s.Txn == "" {
			continue
		}
		if s.Acked && s.Offset >= 0 {
			byOffset[tpOff{s.TP, s.Offset}] = s
			if outcome[s.Txn] == Committed {
				committed[s.TP] = append(committed[s.TP], s)
			}
		}
		if s.ID != "" {
			byID[s.TP.String()+"\x00"+s.ID] = s
		}
	}
	for _, cs := range committed {
		slices.SortStableFunc(cs, func(a, b Send) int { return cmp.Compare(a.Offset, b.Offset) })
	}
	var out []Violation
	for _, r := range h.Reads {
		if !r.Committed {
			continue
		}
		got := map[int64]bool{}
		for _, rec := range r.Records {
			got[rec.Offset] = true
			s, ok := byOffset[tpOff{r.TP, rec.Offset}]
			if !ok && rec.ID != "" {
				s, ok = byID[r.TP.String()+"\x00"+rec.ID]
			}
			if ok && outcome[s.Txn] != Committed {
				out = append(out, violation(RuleTxnAtomic, r.TP, "read_committed reader %s saw %q at offset %d of %s transaction %s", r.Reader, rec.ID, rec.Offset, outcome[s.Txn], s.Txn))
			}
		}
		cs := committed[r.TP]
		i, _ := slices.BinarySearchFunc(cs, r.From, func(s Send, o int64) int { return cmp.Compare(s.Offset, o) })
		for _, s := range cs[i:] {
			if s.Offset >= r.To {
				break
			}
			if !got[s.Offset] {
				out = append(out, violation(RuleTxnAtomic, r.TP, "read_committed reader %s read [%d, %d) but not %q at offset %d of committed transaction %s", r.Reader, r.From, r.To, s.ID, s.Offset, s.Txn))
			}
		}
	}
	return out
}

// ownership: the intervals two different members of a group own the same
// partition never overlap.
func ownership(h *History) []Violation {
	type key struct {
		group string
		tp    TP
	}
	by := map[key][]Assignment{}
	var keys []key
	for _, a := range h.Assignments {
		k := key{a.Group, a.TP}
		if by[k] == nil {
			keys = append(keys, k)
		}
		by[k] = append(by[k], a)
	}
	var out []Violation
	for _, k := range keys {
		as := by[k]
		for i := range as {
			for j := i + 1; j < len(as); j++ {
				a, b := as[i], as[j]
				if a.Member != b.Member && before(a.Start, b.End) && before(b.Start, a.End) {
					v := violation(RuleOwnership, k.tp, "group %s: %s owned it %s and %s owned it %s", k.group, a.Member, span(a), b.Member, span(b))
					v.Members = []string{a.Member, b.Member}
					out = append(out, v)
				}
			}
		}
	}
	return out
}

// before reports a < end, where a zero end is "still open" (after everything).
func before(a, end time.Time) bool { return end.IsZero() || a.Before(end) }

func span(a Assignment) string {
	const f = "15:04:05.000"
	if a.End.IsZero() {
		return fmt.Sprintf("from %s on", a.Start.Format(f))
	}
	return fmt.Sprintf("over [%s, %s)", a.Start.Format(f), a.End.Format(f))
}

// stableCoverage: at every stable instant each subscribed partition has an
// owner.
func stableCoverage(h *History) []Violation {
	var out []Violation
	for _, st := range h.Stable {
		for _, tp := range st.Partitions {
			owned := false
			for _, a := range h.Assignments {
				if a.Group == st.Group && a.TP == tp && !st.At.Before(a.Start) && before(st.At, a.End) {
					owned = true
					break
				}
			}
			if !owned {
				out = append(out, violation(RuleStableCoverage, tp, "group %s was stable at %s with no member owning it", st.Group, st.At.Format("15:04:05.000")))
			}
		}
	}
	return out
}

// commitRegress: per group and partition, in time order, a commit is not
// below the one before unless it is a reset.
func commitRegress(h *History) []Violation {
	cs := slices.Clone(h.Commits)
	slices.SortStableFunc(cs, func(a, b Commit) int { return a.At.Compare(b.At) })
	type key struct {
		group string
		tp    TP
	}
	last := map[key]Commit{}
	var out []Violation
	for _, c := range cs {
		k := key{c.Group, c.TP}
		if p, ok := last[k]; ok && !c.Reset && c.Offset < p.Offset {
			out = append(out, violation(RuleCommitRegress, c.TP, "group %s committed %d after %d (by %s at %s, then %s at %s)", c.Group, c.Offset, p.Offset,
				memberName(p.Member), p.At.Format(time.RFC3339Nano), memberName(c.Member), c.At.Format(time.RFC3339Nano)))
		}
		last[k] = c
	}
	return out
}

// epochs: per client and partition, in time order, observed epochs never
// decrease and accepted data never comes from an epoch below the highest
// observed.
func epochs(h *History) []Violation {
	es := slices.Clone(h.Epochs)
	slices.SortStableFunc(es, func(a, b EpochEvent) int { return a.At.Compare(b.At) })
	type key struct {
		client string
		tp     TP
	}
	max := map[key]int32{}
	var out []Violation
	for _, e := range es {
		if e.Epoch < 0 {
			continue
		}
		k := key{e.Client, e.TP}
		m, ok := max[k]
		switch {
		case ok && e.Data && e.Epoch < m:
			out = append(out, violation(RuleFencedLeader, e.TP, "client %s accepted data from leader epoch %d after observing epoch %d", e.Client, e.Epoch, m))
		case ok && !e.Data && e.Epoch < m:
			out = append(out, violation(RuleEpochRegress, e.TP, "client %s observed leader epoch %d after %d", e.Client, e.Epoch, m))
		}
		if !ok || e.Epoch > m {
			max[k] = e.Epoch
		}
	}
	return out
}

// memberName is m, or "an unnamed member".
func memberName(m string) string {
	if m == "" {
		return "an unnamed member"
	}
	return m
}
