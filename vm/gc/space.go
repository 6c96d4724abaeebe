package gc

import "github.com/droidprof/droidprof/vm/heap"

// Retention is when a space's objects may be collected (ART's
// GcRetentionPolicy).
type Retention uint8

const (
	// NeverCollect spaces (the image) are immune to every collection.
	NeverCollect Retention = iota
	// FullCollect spaces (the sealed zygote space) are collected only by
	// full collections.
	FullCollect
	// AlwaysCollect spaces are collected by every collection.
	AlwaysCollect
)

// Space is one contiguous range of the reserved heap.
type Space struct {
	Name      string
	Base      uint32 // first address
	Limit     uint32 // first address past the reserved range
	Top       uint32 // first address never handed out
	Retention Retention
	// Allocated and Objects count what the space holds: bytes (aligned)
	// and objects not yet found dead.
	Allocated, Objects uint64

	live, mark *bitmap
}

func newSpace(name string, base, capacity uint32, r Retention) *Space {
	return &Space{Name: name, Base: base, Limit: base + capacity, Top: base, Retention: r,
		live: newBitmap(base, capacity), mark: newBitmap(base, capacity)}
}

// Contains reports whether a lies in the part of the space handed out so
// far.
func (s *Space) Contains(a uint32) bool { return a >= s.Base && a < s.Top }

// bump hands out size bytes at Top, or reports false when the space is
// full.
func (s *Space) bump(size uint32) (uint32, bool) {
	if uint64(s.Top)+uint64(size) > uint64(s.Limit) {
		return 0, false
	}
	a := s.Top
	s.Top += size
	return a, true
}

// IsLive reports whether an object starts at a (a inside s).
func (s *Space) IsLive(a uint32) bool { return a%heap.Alignment == 0 && s.live.test(a) }

// Walk calls f for every live object, in address order.
func (s *Space) Walk(f func(a uint32)) { s.live.walk(s.Base, s.Top, f) }
