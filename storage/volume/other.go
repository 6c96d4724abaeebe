//go:build !linux

package volume

import (
	"context"
	"errors"
	"os"
)

var errUnsupported = errors.New("storage backends loop and device need Linux")

func openLoop(context.Context, Spec) (*Volume, error)   { return nil, errUnsupported }
func openDevice(context.Context, Spec) (*Volume, error) { return nil, errUnsupported }

type state struct {
	Backend string
	TempDir string
}

func (s *state) save() error { return nil }

func (s *state) teardown() error {
	if s.TempDir != "" {
		return os.RemoveAll(s.TempDir)
	}
	return nil
}

// Reap does nothing where there are no loop or device volumes.
func Reap() error { return nil }
