package smali

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/vm/smali/lexer"
)

// FuzzParse feeds arbitrary text to the lexer and the parser. Neither may
// panic; the tokens must cover the input exactly; and whatever parses
// without error must print to text that parses to the same tree.
//
// The seed corpus is our own smali: testdata/*.smali and the oracle cases.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.smali")
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	for i, c := range oracleCases {
		f.Add([]byte(c.source(i)))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) > 1<<16 {
			return
		}
		var b strings.Builder
		line := 1
		for _, tok := range lexer.Tokenize(string(src), 28) {
			if tok.Line < line {
				t.Fatalf("token %v on line %d after line %d", tok, tok.Line, line)
			}
			line = tok.Line
			b.WriteString(tok.Raw)
		}
		if b.String() != string(src) {
			t.Fatalf("tokens do not cover the input:\n%q\n%q", b.String(), src)
		}
		c, err := Parse("fuzz.smali", src, &Options{API: 28})
		if err != nil {
			if _, ok := err.(ErrorList); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		text := Format(c)
		again, err := Parse("printed.smali", text, &Options{API: 28})
		if err != nil {
			t.Fatalf("printed text does not parse: %v\n--- input:\n%s\n--- printed:\n%s", err, src, text)
		}
		if !sameTree(c, again) {
			t.Fatalf("parse(print(tree)) differs\n--- input:\n%s\n--- printed:\n%s\n--- reprinted:\n%s", src, text, Format(again))
		}
	})
}
