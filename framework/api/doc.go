// Package api holds the droidprof plugin protocol (protobuf package
// droidprof.v1): the messages and gRPC services shared by the host and every
// plugin. The generated code is committed so a plain `go build` needs no protoc.
package api

//go:generate protoc -I proto --go_out=. --go_opt=module=github.com/droidprof/droidprof/framework/api --go-grpc_out=. --go-grpc_opt=module=github.com/droidprof/droidprof/framework/api proto/droidprof/v1/droidprof.proto

// ProtocolVersion is the plugin protocol version negotiated by go-plugin.
const ProtocolVersion = 1
