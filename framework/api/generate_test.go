package api

import (
	"bytes"
	"github.com/droidprof/droidprof/internal/testenv"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestGeneratedCodeIsCurrent regenerates the protocol code with protoc and
// checks it equals the committed files, so an edited .proto is never shipped
// with stale Go code.
func TestGeneratedCodeIsCurrent(t *testing.T) {
	for _, tool := range []string{"protoc", "protoc-gen-go", "protoc-gen-go-grpc"} {
		testenv.Tool(t, tool, "protobuf-compiler, plus the Go plugins .ci/run installs")
	}
	out := t.TempDir()
	cmd := exec.Command("protoc", "-I", "proto",
		"--go_out="+out, "--go_opt=paths=source_relative",
		"--go-grpc_out="+out, "--go-grpc_opt=paths=source_relative",
		"proto/droidprof/v1/droidprof.proto")
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("protoc: %v\n%s", err, msg)
	}
	for _, f := range []string{"droidprof.pb.go", "droidprof_grpc.pb.go"} {
		want, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(out, "droidprof", "v1", f))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale: run `go generate ./framework/api`", f)
		}
	}
}
