package host

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

func TestUserError(t *testing.T) {
	plain := errors.New("plain")
	tests := []struct {
		err  error
		want string
	}{
		{status.Error(codes.Aborted, "no space left on device"), "no space left on device"},
		{status.Error(codes.Unknown, "step x: bad config"), "step x: bad config"},
		{status.Error(codes.Canceled, "context canceled"), "cancelled"},
		{status.Error(codes.Unavailable, "error reading from server: EOF"), "connection to the plugin lost: error reading from server: EOF"},
		{plain, "plain"},
	}
	for _, tt := range tests {
		got := UserError(tt.err)
		if got.Error() != tt.want || strings.Contains(got.Error(), "rpc error") {
			t.Errorf("UserError(%v) = %q, want %q", tt.err, got, tt.want)
		}
		if !errors.Is(got, tt.err) || status.Code(got) != status.Code(tt.err) {
			t.Errorf("UserError(%v) lost its cause: code %v", tt.err, status.Code(got))
		}
	}
	if UserError(nil) != nil {
		t.Error("UserError(nil) != nil")
	}
}

// TestUnknownPluginNamesTheSearch: the error says where plugins were looked
// for, and that ./plugins.d is relative to the working directory.
func TestUnknownPluginNamesTheSearch(t *testing.T) {
	wd, _ := os.Getwd()
	d := Discovery{Builtins: []string{"dpa", "mobibench"}, Dirs: []string{"plugins.d", "/opt/p"}}
	m := NewManager(nil, nil)
	m.Searched = d.Searched()
	_, err := m.Get("hashrate")
	if !errors.Is(err, ErrUnknownPlugin) {
		t.Fatalf("err = %v", err)
	}
	for _, want := range []string{`unknown plugin "hashrate"`, "built-in plugins: dpa, mobibench;", "droidprof-plugin-<name>",
		fmt.Sprintf("./plugins.d (relative to the current directory: %s)", filepath.Join(wd, "plugins.d")), "/opt/p"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}
