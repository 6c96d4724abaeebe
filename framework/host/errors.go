package host

import (
	"fmt"
	"path/filepath"
	"strings"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// UserError turns an error of a plugin call into one a user can read: a gRPC
// status error ("rpc error: code = Aborted desc = no space left on device")
// becomes its message, said in plain words where the code adds something.
// Other errors, and wrapped status errors, are returned as they are: the
// message a plugin returns is the message.
func UserError(err error) error {
	if err == nil {
		return nil
	}
	st, ok := status.FromError(err)
	if !ok || st.Code() == codes.OK {
		return err
	}
	msg := st.Message()
	switch st.Code() {
	case codes.Canceled:
		msg = "cancelled"
	case codes.DeadlineExceeded:
		msg = "timed out: " + msg
	case codes.Unavailable:
		msg = "connection to the plugin lost: " + msg
	case codes.Unimplemented:
		msg = "not supported by the plugin: " + msg
	}
	return &pluginError{msg: msg, cause: err}
}

// pluginError keeps the status error reachable (errors.As, status.Code)
// while printing only its message.
type pluginError struct {
	msg   string
	cause error
}

func (e *pluginError) Error() string { return e.msg }
func (e *pluginError) Unwrap() error { return e.cause }

// GRPCStatus lets status.Code and status.FromError see through the wrapper.
func (e *pluginError) GRPCStatus() *status.Status { return status.Convert(e.cause) }

// Searched describes where plugins were looked for, for an "unknown plugin"
// error: the built-ins, then each directory, relative ones with the working
// directory they are relative to.
func (d Discovery) Searched() string {
	var dirs []string
	for _, dir := range d.Dirs {
		if filepath.IsAbs(dir) {
			dirs = append(dirs, dir)
			continue
		}
		abs, err := filepath.Abs(dir)
		if err != nil {
			abs = dir
		}
		dirs = append(dirs, fmt.Sprintf("./%s (relative to the current directory: %s)", filepath.ToSlash(filepath.Clean(dir)), abs))
	}
	return fmt.Sprintf("built-in plugins: %s; other plugins are binaries named %s<name>, looked for in %s",
		strings.Join(d.Builtins, ", "), BinaryPrefix, strings.Join(dirs, ", "))
}

// errUnknown is the error of Get for a name no source provides.
func (m *Manager) errUnknown(name string) error {
	err := fmt.Errorf("%w %q", ErrUnknownPlugin, name)
	if m.Searched != "" {
		err = fmt.Errorf("%w; %s", err, m.Searched)
	}
	return err
}
