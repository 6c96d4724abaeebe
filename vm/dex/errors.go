package dex

import (
	"errors"
	"fmt"
)

// FormatError reports malformed DEX content: what is wrong, in which item,
// at which file offset.
type FormatError struct {
	Item    string // e.g. "string_ids[12]", "code_item of LA;.f:()V"
	Offset  int64  // file offset of the problem
	Problem string
}

// Error formats the error as "dex: ITEM at OFFSET: PROBLEM".
func (e *FormatError) Error() string {
	if e.Item == "" {
		return fmt.Sprintf("dex: at %#x: %s", e.Offset, e.Problem)
	}
	return fmt.Sprintf("dex: %s at %#x: %s", e.Item, e.Offset, e.Problem)
}

func errorf(item string, off int64, format string, args ...any) error {
	return &FormatError{Item: item, Offset: off, Problem: fmt.Sprintf(format, args...)}
}

// withItem prefixes the item name of a FormatError, for errors of items
// whose names are only worth building when something is wrong.
func withItem(err error, prefix string) error {
	var fe *FormatError
	if errors.As(err, &fe) {
		fe.Item = prefix + fe.Item
	}
	return err
}
