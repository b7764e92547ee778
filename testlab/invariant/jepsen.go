package invariant

import "slices"

// lostUnseen: an acknowledged record every reader must see, at an offset
// some Read covered, must have been delivered by a reader (RuleLostWrite);
// on a partition read to its end, every such record must have been
// delivered by someone (RuleUnseen).
func lostUnseen(h *History, ix *index) []Violation {
	type seen struct {
		offs  map[int64]bool
		ids   map[string]bool
		cover intervals
		toEnd bool
	}
	by := map[TP]*seen{}
	for _, r := range h.Reads {
		s := by[r.TP]
		if s == nil {
			s = &seen{offs: map[int64]bool{}, ids: map[string]bool{}}
			by[r.TP] = s
		}
		if !r.Unordered {
			s.cover = append(s.cover, [2]int64{r.From, r.To})
		}
		s.toEnd = s.toEnd || r.ToEnd
		for _, rec := range r.Records {
			s.offs[rec.Offset] = true
			s.ids[rec.ID] = true
		}
	}
	for _, s := range by {
		s.cover = mergeIntervals(s.cover)
	}
	var out []Violation
	for i := range h.Sends {
		snd := &h.Sends[i]
		s := by[snd.TP]
		if !snd.Acked || s == nil || !ix.mustSee(snd) {
			continue
		}
		switch {
		case snd.Offset >= 0 && s.offs[snd.Offset]:
		case snd.Offset >= 0 && s.cover.contains(snd.Offset):
			out = append(out, violation(RuleLostWrite, snd.TP, "%s's record %q acknowledged at offset %d: readers read past it and none delivered it", snd.Producer, snd.ID, snd.Offset))
		case s.toEnd && (snd.ID == "" || !s.ids[snd.ID]):
			out = append(out, violation(RuleUnseen, snd.TP, "%s's record %q acknowledged at offset %d was never delivered though the partition was read to its end", snd.Producer, snd.ID, snd.Offset))
		}
	}
	return out
}

// inconsistentOffsets: the log, the reads and the acknowledgements agree on
// the record at each offset.
func inconsistentOffsets(h *History) []Violation {
	type claim struct{ id, by string }
	claims := map[tpOff]claim{}
	reported := map[tpOff]bool{}
	var out []Violation
	note := func(tp TP, off int64, id, by string) {
		if id == "" || off < 0 {
			return
		}
		k := tpOff{tp, off}
		c, ok := claims[k]
		switch {
		case !ok:
			claims[k] = claim{id, by}
		case c.id != id && !reported[k]:
			reported[k] = true
			out = append(out, violation(RuleInconsistentOffsets, tp, "offset %d holds %q for %s and %q for %s", off, c.id, c.by, id, by))
		}
	}
	for _, l := range h.Logs {
		for _, r := range l.Records {
			note(l.TP, r.Offset, r.ID, "the final log")
		}
	}
	for _, s := range h.Sends {
		if s.Acked {
			note(s.TP, s.Offset, s.ID, "producer "+s.Producer)
		}
	}
	for _, r := range h.Reads {
		for _, rec := range r.Records {
			note(r.TP, rec.Offset, rec.ID, "reader "+r.Reader)
		}
	}
	return out
}

// abortedReads: no reader delivers a record whose write certainly failed
// (NotSent, or, read_committed, an aborted transaction's).
func abortedReads(h *History, ix *index) []Violation {
	var out []Violation
	for _, r := range h.Reads {
		for _, rec := range r.Records {
			if ix.failed(r.TP, rec, r.Committed) {
				out = append(out, violation(RuleAbortedRead, r.TP, "reader %s delivered %q at offset %d, whose write failed or was aborted", r.Reader, rec.ID, rec.Offset))
			}
		}
	}
	return out
}

// polls: a reader's records of a partition follow each other in the
// version order, within a read and from a read to the one that Continues
// it (RulePollSkip, RuleNonmonotonicPoll); reads of one committed
// transaction continue each other (RuleInternal).
func polls(h *History, ix *index) []Violation {
	type key struct {
		reader string
		tp     TP
	}
	type last struct {
		rank int
		off  int64
		txn  string
	}
	prev := map[key]last{}
	var out []Violation
	judge := func(r *Read, order []int64, p last, rk int, off int64, where string) {
		switch d := rk - p.rank; {
		case d > 1:
			out = append(out, violation(RulePollSkip, r.TP, "reader %s delivered offset %d after %d %s, skipping %d record(s) from offset %d", r.Reader, off, p.off, where, d-1, order[p.rank+1]))
		case d <= 0:
			out = append(out, violation(RuleNonmonotonicPoll, r.TP, "reader %s delivered offset %d after %d %s", r.Reader, off, p.off, where))
		}
	}
	for i := range h.Reads {
		r := &h.Reads[i]
		if r.Unordered {
			continue
		}
		order := ix.order(r.TP, r.Committed)
		k := key{r.Reader, r.TP}
		p, hasPrev := prev[k]
		sameTxn := hasPrev && r.Txn != "" && r.Txn == p.txn && ix.outcome(r.Txn) == Committed
		if !r.Continues && !sameTxn {
			hasPrev = false
			delete(prev, k)
		}
		first := true
		for _, rec := range r.Records {
			rk, ok := rank(order, rec.Offset)
			if !ok { // an aborted read (reported as such): not in the order
				continue
			}
			switch {
			case first && sameTxn && rk != p.rank+1:
				out = append(out, violation(RuleInternal, r.TP, "transaction %s's read delivered offset %d after its previous read of the partition ended at %d", r.Txn, rec.Offset, p.off))
			case first && hasPrev && !sameTxn:
				judge(r, order, p, rk, rec.Offset, "in its previous read")
			case !first:
				judge(r, order, p, rk, rec.Offset, "in the same read")
			}
			p = last{rk, rec.Offset, r.Txn}
			hasPrev, first = true, false
		}
		if hasPrev {
			prev[k] = p
		}
	}
	return out
}

// intermediateReads: a read_committed reader never delivers a record of a
// transaction before that transaction's EndTxn was invoked (RuleG1b).
func intermediateReads(h *History, ix *index) []Violation {
	var out []Violation
	for _, r := range h.Reads {
		if !r.Committed || r.Completed.IsZero() {
			continue
		}
		for _, rec := range r.Records {
			w := ix.writer(r.TP, rec)
			if t := ix.txns[w]; w != "" && t != nil && !t.EndInvoked.IsZero() && r.Completed.Before(t.EndInvoked) {
				out = append(out, violation(RuleG1b, r.TP, "reader %s's read completed at %s delivered %q at offset %d of transaction %s, whose EndTxn was invoked only at %s",
					r.Reader, r.Completed.Format(stamp), rec.ID, rec.Offset, w, t.EndInvoked.Format(stamp)))
			}
		}
	}
	return out
}

const stamp = "15:04:05.000"

// ruleRank is r's position in Rules.
func ruleRank(r Rule) int { return slices.Index(Rules, r) }
