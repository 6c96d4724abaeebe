// Package smalisuite holds what the tests that run smali's own
// integration tests (Debian source package libsmali-java,
// smali-integration-tests) share: the syntax updates those files, written
// for an older smali, need before smali 2.5.2 (and our assembler) accept
// them.
package smalisuite

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// UpdateSyntax applies the known syntax updates that the integration tests,
// written for an older smali, need for smali 2.5.2 (shared/reference,
// dalvik-and-dex.md §6.C):
//
//  1. .parameter "name" … .end parameter (AnnotationTests) became
//     .param pN, "name" … .end param, where pN is the register of the
//     method's next parameter.
//  2. .local vN, name:Type with a bare name (AutofixTests/GotoTest) needs
//     the name as a string literal: .local vN, "name":Type.
//  3. const/high16 and const-wide/high16 (InstructionTests/Format21h) took
//     the high 16 bits (0x3000); now they take the whole value
//     (0x30000000, 0x3000000000000000L).
//
// It also returns how many lines each update changed.
func UpdateSyntax(src []byte) ([]byte, [3]int) {
	var n [3]int
	lines := strings.Split(string(src), "\n")
	var paramRegs []int // registers of the current method's parameters
	next := 0
	for i, line := range lines {
		trimmed := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(trimmed, ".method "):
			paramRegs, next = parameterRegisters(trimmed), 0
		case strings.HasPrefix(trimmed, ".parameter"):
			reg := -1
			if next < len(paramRegs) {
				reg = paramRegs[next]
			}
			next++
			rest := strings.TrimSpace(strings.TrimPrefix(trimmed, ".parameter"))
			repl := fmt.Sprintf(".param p%d", reg)
			if rest != "" {
				repl += ", " + rest
			}
			lines[i] = strings.Replace(line, trimmed, repl, 1)
			n[0]++
		case trimmed == ".end parameter":
			lines[i] = strings.Replace(line, ".end parameter", ".end param", 1)
			n[0]++
		}
		if m := bareLocal.FindStringSubmatchIndex(lines[i]); m != nil {
			l := lines[i]
			lines[i] = l[:m[2]] + strconv.Quote(l[m[2]:m[3]]) + l[m[3]:]
			n[1]++
		}
		if m := high16.FindStringSubmatch(lines[i]); m != nil {
			v, err := strconv.ParseInt(m[3], 0, 64)
			if err == nil && v > -0x8000 && v < 0x10000 {
				var lit string
				if m[2] == "-wide" {
					lit = fmt.Sprintf("%#xL", uint64(v)<<48)
				} else {
					lit = fmt.Sprintf("%#x", uint32(v)<<16)
				}
				lines[i] = strings.Replace(lines[i], m[1]+m[3], m[1]+lit, 1)
				n[2]++
			}
		}
	}
	return []byte(strings.Join(lines, "\n")), n
}

var (
	bareLocal = regexp.MustCompile(`^\s*\.local\s+[vp]\d+\s*,\s*([A-Za-z_$][A-Za-z0-9_$]*)\s*:`)
	high16    = regexp.MustCompile(`^(\s*const(-wide)?/high16\s+[vp]\d+\s*,\s*)(-?(?:0x[0-9a-fA-F]+|\d+))\s*$`)
)

// parameterRegisters gives the p registers of a method's parameters from
// its .method line.
func parameterRegisters(methodLine string) []int {
	open, closing := strings.Index(methodLine, "("), strings.Index(methodLine, ")")
	if open < 0 || closing < open {
		return nil
	}
	reg := 1
	if strings.Contains(methodLine[:open], " static ") {
		reg = 0
	}
	var regs []int
	params := methodLine[open+1 : closing]
	for i := 0; i < len(params); i++ {
		regs = append(regs, reg)
		array := false
		for params[i] == '[' {
			i++
			array = true
		}
		c := params[i]
		if c == 'L' {
			i += strings.IndexByte(params[i:], ';')
		}
		reg++
		if (c == 'J' || c == 'D') && !array {
			reg++
		}
	}
	return regs
}
