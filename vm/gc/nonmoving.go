package gc

import "github.com/droidprof/droidprof/vm/heap"

// The non-moving space holds objects that must keep their address under
// every collector: the application's Class objects, whose addresses the
// class table and compiled field offsets rely on, as in ART. It is a
// free-list mark-sweep space collected by every collection, whatever
// the main space's collector.
func newNonMovingSpace() *FreeList {
	return newFreeList("non moving space", heap.NonMovingBase, heap.NonMovingMax)
}
