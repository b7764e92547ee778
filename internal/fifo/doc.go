// Package fifo is gregor's one first-in, first-out queue over a slice,
// for the queues whose items leave from the front: the producer's Send
// calls waiting for room, the share consumer's kept acknowledgement
// outcomes and the group consumer's records awaiting a processed mark.
//
// A Queue keeps its items in one slice from a head index, so Push and Pop
// cost O(1) amortized and allocate only when the slice grows. The items
// before the head are zeroed as they leave (a queue keeps nothing alive
// that it no longer holds) and compacted away once they are the larger
// half of the slice, so a queue that never empties stays within twice its
// largest length and each item is moved at most once on average. The zero
// Queue is empty and ready to use; a Queue is not safe for concurrent use
// (its owner's lock guards it).
package fifo
