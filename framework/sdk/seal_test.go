package sdk_test

import (
	"bytes"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The seal: a plugin sees droidprof only through the SDK, as a third-party
// author does. Of this module, a plugin package may import
//
//   - framework/sdk and its sub-packages (the SDK),
//   - vm/... and storage/... (the shared runtimes plugins run workloads on),
//   - workloads (the programs the VM profilers are evaluated on),
//   - its own packages (plugins/NAME/..., examples/NAME/...),
//
// and its tests may also import internal/testenv (this repository's policy
// of turning skips into failures in CI). Anything else of ours — the rest of
// framework/, cmd/, another plugin, the other internal/ packages — is a
// dependency a third-party plugin could not have.
const module = "github.com/droidprof/droidprof"

var sealedRoots = []string{"plugins", "examples"}

type listedPackage struct {
	ImportPath   string
	Imports      []string
	TestImports  []string
	XTestImports []string
}

func pluginRoot(path string) string {
	rel := strings.TrimPrefix(path, module+"/")
	parts := strings.SplitN(rel, "/", 3)
	if len(parts) < 2 {
		return rel
	}
	return module + "/" + parts[0] + "/" + parts[1]
}

// sealViolation says why a plugin package may not import imp, or "" when it may.
func sealViolation(pkg, imp string, test bool) string {
	if imp != module && !strings.HasPrefix(imp, module+"/") {
		return "" // standard library or a third-party module
	}
	rel := strings.TrimPrefix(strings.TrimPrefix(imp, module), "/")
	under := func(p string) bool { return rel == p || strings.HasPrefix(rel, p+"/") }
	root := pluginRoot(pkg)
	switch {
	case under("framework/sdk"), under("vm"), under("storage"), rel == "workloads":
		return ""
	case imp == root || strings.HasPrefix(imp, root+"/"):
		return ""
	case test && rel == "internal/testenv":
		return ""
	}
	return "imports " + imp + ", which is not part of the SDK (framework/sdk/...) nor a shared runtime (vm/..., storage/..., workloads)"
}

func TestPluginsImportOnlyTheSDK(t *testing.T) {
	var args []string
	for _, r := range sealedRoots {
		args = append(args, "./"+r+"/...")
	}
	cmd := exec.Command("go", append([]string{"list", "-json=ImportPath,Imports,TestImports,XTestImports"}, args...)...)
	cmd.Dir = filepath.Join("..", "..")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	n := 0
	for {
		var p listedPackage
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("go list output: %v", err)
		}
		n++
		for _, imp := range p.Imports {
			if why := sealViolation(p.ImportPath, imp, false); why != "" {
				t.Errorf("%s %s", p.ImportPath, why)
			}
		}
		for _, imp := range append(p.TestImports, p.XTestImports...) {
			if why := sealViolation(p.ImportPath, imp, true); why != "" {
				t.Errorf("%s (tests) %s", p.ImportPath, why)
			}
		}
	}
	if n < 4 {
		t.Fatalf("go list found %d plugin packages; the test looks in the wrong place", n)
	}
}

// The rule itself, on imports a plugin must not have and ones it may.
func TestSealViolation(t *testing.T) {
	const dpa = module + "/plugins/dpa"
	tests := []struct {
		pkg, imp string
		test     bool
		ok       bool
	}{
		{dpa, module + "/framework/sdk", false, true},
		{dpa, module + "/framework/sdk/chart", false, true},
		{dpa + "/analysis", module + "/plugins/dpa/trace", false, true},
		{dpa, module + "/vm/runtime", false, true},
		{dpa, module + "/storage/fileio", false, true},
		{dpa, module + "/workloads", false, true},
		{dpa, "github.com/hashicorp/go-hclog", false, true},
		{dpa, "fmt", false, true},
		{dpa, module + "/internal/testenv", true, true},
		{dpa, module + "/internal/testenv", false, false},
		{dpa, module + "/framework/api", false, false},
		{dpa, module + "/framework/api", true, false},
		{dpa, module + "/framework/chart", false, false},
		{dpa, module + "/framework/stats", false, false},
		{dpa, module + "/framework/results", false, false},
		{dpa, module + "/framework/internal/wire", false, false},
		{dpa, module + "/framework/sdkx", false, false},
		{dpa, module + "/plugins/mobibench", false, false},
		{dpa, module + "/plugins/dpax", false, false},
		{dpa, module + "/internal/javadex", true, false},
		{dpa, module + "/cmd/droidprof", false, false},
		{module + "/examples/plugin-hashrate", module + "/framework/api", true, false},
	}
	for _, tt := range tests {
		got := sealViolation(tt.pkg, tt.imp, tt.test) == ""
		if got != tt.ok {
			t.Errorf("sealViolation(%s, %s, test=%v) allows = %v, want %v", tt.pkg, tt.imp, tt.test, got, tt.ok)
		}
	}
}

// hostFacing are the exported names of package sdk that the host (config
// validation) and sdktest use and that may mention protocol types; plugins
// have no use for them.
var hostFacing = map[string]bool{"SchemaOf": true, "ParseValue": true, "Servers": true, "NewGRPCServer": true}

// protocolImports are packages whose types must not appear in what a plugin
// author sees of the SDK.
var protocolImports = []string{
	module + "/framework/api",
	module + "/framework/internal/wire",
	"google.golang.org/grpc",
	"google.golang.org/protobuf",
}

// TestSDKSurfaceHasNoProtocolTypes checks every exported declaration of the
// SDK packages (functions, methods, types, struct fields) for a protocol,
// gRPC or go-plugin wire type: plugins must be able to use the SDK without
// knowing the protocol, so the protocol can change under them.
func TestSDKSurfaceHasNoProtocolTypes(t *testing.T) {
	for _, dir := range []string{".", "sdktest", "chart", "stats"} {
		fset := token.NewFileSet()
		matches, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		nfiles := 0
		for _, path := range matches {
			if strings.HasSuffix(path, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			nfiles++
			for _, where := range protocolUses(fset, f) {
				t.Errorf("%s: the SDK's public surface exposes a protocol type", where)
			}
		}
		if nfiles == 0 {
			t.Errorf("no Go files in %s", dir)
		}
	}
}

// protocolUses lists "file:line: name uses pkg.Type" for each exported
// declaration of f whose type mentions a protocolImports package.
func protocolUses(fset *token.FileSet, f *ast.File) []string {
	banned := map[string]bool{} // local names of banned imports
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		for _, b := range protocolImports {
			if path == b || strings.HasPrefix(path, b+"/") {
				name := path[strings.LastIndex(path, "/")+1:]
				if imp.Name != nil {
					name = imp.Name.Name
				}
				banned[name] = true
			}
		}
	}
	var out []string
	check := func(name string, n ast.Node) {
		if n == nil || hostFacing[name] {
			return
		}
		ast.Inspect(n, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok && banned[id.Name] {
					out = append(out, fset.Position(sel.Pos()).String()+": "+name+" uses "+id.Name+"."+sel.Sel.Name)
				}
			}
			return true
		})
	}
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if !d.Name.IsExported() {
				continue
			}
			if d.Recv != nil {
				recv := d.Recv.List[0].Type
				if s, ok := recv.(*ast.StarExpr); ok {
					recv = s.X
				}
				if id, ok := recv.(*ast.Ident); !ok || !id.IsExported() {
					continue
				}
			}
			check(d.Name.Name, d.Type)
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch s := spec.(type) {
				case *ast.TypeSpec:
					if !s.Name.IsExported() {
						continue
					}
					if st, ok := s.Type.(*ast.StructType); ok {
						for _, fld := range st.Fields.List {
							exported := len(fld.Names) == 0 // embedded: its methods are promoted
							for _, n := range fld.Names {
								exported = exported || n.IsExported()
							}
							if exported {
								check(s.Name.Name, fld.Type)
							}
						}
						continue
					}
					check(s.Name.Name, s.Type)
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if n.IsExported() {
							check(n.Name, s.Type)
							for _, v := range s.Values {
								check(n.Name, v)
							}
						}
					}
				}
			}
		}
	}
	sort.Strings(out)
	return out
}
