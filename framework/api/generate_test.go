package api

import (
	"bytes"
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
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("DROIDPROF_REQUIRE_PRIVILEGED") == "1" {
				t.Fatalf("%s not on PATH (CI installs it)", tool)
			}
			t.Skipf("%s not on PATH: install protobuf-compiler and the Go plugins to check generated code", tool)
		}
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
