package dexdump

import "regexp"

var (
	insnOffset     = regexp.MustCompile(`(?m)^[0-9a-f]{6}:`)
	codeOffset     = regexp.MustCompile(`\[[0-9a-f]{6}\]`)
	callSiteOffset = regexp.MustCompile(`(?m)^(\s*Call site #\d+: // offset )\d+$`)
)

// StripOffsets removes the file offsets from dexdump -d output (the
// instruction address column, code item addresses and call-site offsets), so
// the disassembly of two files with the same content but different layouts
// (ours and smali's, or before and after a rewrite) can be compared.
func StripOffsets(s string) string {
	s = insnOffset.ReplaceAllString(s, "OFFSET:")
	s = codeOffset.ReplaceAllString(s, "[OFFSET]")
	return callSiteOffset.ReplaceAllString(s, "${1}OFFSET")
}
