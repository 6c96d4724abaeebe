//go:build !unix

package runstore

import "os"

// canLock is false where flock is not available: runs are then never
// reported as crashed.
const canLock = false

// lockFile is a no-op without flock.
func lockFile(f *os.File, wait bool) error { return nil }
