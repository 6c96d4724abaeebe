package strace

import (
	"strconv"
	"strings"
)

// SplitArgs splits an argument list at its top-level commas, leaving
// quoted strings, structures {...}, arrays [...] and nested calls whole.
func SplitArgs(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '"':
			if j := endQuote(s, i); j >= 0 {
				i = j
			} else {
				i = len(s) - 1
			}
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth > 0 {
				depth--
			}
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	if t := strings.TrimSpace(s[start:]); t != "" || len(out) > 0 {
		out = append(out, t)
	}
	return out
}

// Unquote decodes a C string as strace prints it ("a\tb\x00\377"), with an
// optional trailing "..." (strace cut it at -s). It returns the bytes,
// whether the string was cut, and false if arg is not a string.
func Unquote(arg string) (val string, cut, ok bool) {
	if !strings.HasPrefix(arg, `"`) {
		return "", false, false
	}
	end := endQuote(arg, 0)
	if end < 0 {
		return "", false, false
	}
	rest := arg[end+1:]
	switch rest {
	case "":
	case "...":
		cut = true
	default:
		return "", false, false
	}
	in := arg[1:end]
	var b strings.Builder
	for i := 0; i < len(in); i++ {
		c := in[i]
		if c != '\\' || i+1 >= len(in) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := in[i]; e {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'v':
			b.WriteByte('\v')
		case 'f':
			b.WriteByte('\f')
		case 'x':
			if i+2 < len(in) {
				if v, err := strconv.ParseUint(in[i+1:i+3], 16, 8); err == nil {
					b.WriteByte(byte(v))
					i += 2
					continue
				}
			}
			b.WriteByte(e)
		default:
			if e >= '0' && e <= '7' {
				j := i
				for j < len(in) && j < i+3 && in[j] >= '0' && in[j] <= '7' {
					j++
				}
				v, _ := strconv.ParseUint(in[i:j], 8, 16)
				b.WriteByte(byte(v))
				i = j - 1
				continue
			}
			b.WriteByte(e)
		}
	}
	return b.String(), cut, true
}

// FD reads an fd argument: "3", or "3</path>" as strace -y prints it. path
// is the -y path when there is one.
func FD(arg string) (fd int, path string, ok bool) {
	num, rest, _ := strings.Cut(arg, "<")
	v, err := strconv.Atoi(strings.TrimSpace(num))
	if err != nil {
		return 0, "", false
	}
	if rest != "" {
		path = strings.TrimSuffix(rest, ">")
	}
	return v, path, true
}

// Int reads a numeric argument (decimal or 0x hex).
func Int(arg string) (int64, bool) {
	arg = strings.TrimSpace(arg)
	if strings.HasPrefix(arg, "0x") {
		v, err := strconv.ParseUint(arg[2:], 16, 64)
		return int64(v), err == nil
	}
	v, err := strconv.ParseInt(arg, 10, 64)
	return v, err == nil
}
