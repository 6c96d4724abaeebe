package smali

import (
	"github.com/droidprof/droidprof/internal/smalisuite"
	"reflect"
	"testing"

	"github.com/droidprof/droidprof/vm/smali/ast"
)

var posType = reflect.TypeOf(ast.Pos{})

// stripped returns a deep copy of a tree with every position zeroed and
// every empty slice made nil, so trees from different sources compare.
func stripped(v any) any { return normalised(v, false) }

// normalised returns a deep copy of a tree with every empty slice made nil
// and, unless keepPos, every position zeroed.
func normalised(v any, keepPos bool) any {
	out := reflect.New(reflect.TypeOf(v)).Elem()
	copyStripped(out, reflect.ValueOf(v), keepPos)
	return out.Interface()
}

func copyStripped(dst, src reflect.Value, keepPos bool) {
	switch src.Kind() {
	case reflect.Pointer:
		if src.IsNil() {
			return
		}
		p := reflect.New(src.Elem().Type())
		copyStripped(p.Elem(), src.Elem(), keepPos)
		dst.Set(p)
	case reflect.Interface:
		if src.IsNil() {
			return
		}
		e := reflect.New(src.Elem().Type()).Elem()
		copyStripped(e, src.Elem(), keepPos)
		dst.Set(e)
	case reflect.Struct:
		if src.Type() == posType && !keepPos {
			return
		}
		for i := 0; i < src.NumField(); i++ {
			copyStripped(dst.Field(i), src.Field(i), keepPos)
		}
	case reflect.Slice:
		if src.Len() == 0 {
			return
		}
		s := reflect.MakeSlice(src.Type(), src.Len(), src.Len())
		for i := 0; i < src.Len(); i++ {
			copyStripped(s.Index(i), src.Index(i), keepPos)
		}
		dst.Set(s)
	default:
		dst.Set(src)
	}
}

// sameTree reports whether two classes are equal but for positions.
func sameTree(a, b *ast.Class) bool { return reflect.DeepEqual(stripped(a), stripped(b)) }

// sameTreeWithPos reports whether two classes are equal, positions
// included.
func sameTreeWithPos(a, b *ast.Class) bool {
	return reflect.DeepEqual(normalised(a, true), normalised(b, true))
}

// roundTrip prints a class, parses the text and requires the same tree.
func roundTrip(t *testing.T, name string, c *ast.Class, api int) {
	t.Helper()
	text := Format(c)
	again, err := Parse(name+" (printed)", text, &Options{API: api})
	if err != nil {
		t.Errorf("%s: printed text does not parse:\n%v\n--- printed:\n%s", name, err, text)
		return
	}
	if !sameTree(c, again) {
		t.Errorf("%s: parse(print(tree)) differs from tree\n--- printed:\n%s\n--- reprinted:\n%s", name, text, Format(again))
	}
}

// TestRoundTripIntegrationFiles: parse → print → parse gives the same tree
// for every smali-integration-tests file.
func TestRoundTripIntegrationFiles(t *testing.T) {
	for name, src := range integrationFiles(t) {
		updated, _ := smalisuite.UpdateSyntax(src)
		c, err := Parse(name, updated, &Options{API: 28})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		roundTrip(t, name, c, 28)
	}
}
