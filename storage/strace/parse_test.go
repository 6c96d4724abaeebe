package strace

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseLineShapes(t *testing.T) {
	tests := []struct {
		name, line string
		kind       Kind
		pid        int
		time       int64
		call, args string
		ret        int64
		errno      string
		dur        int64
	}{
		{"file -f", `1234  1700000000.123456 openat(AT_FDCWD, "/data/a b", O_RDWR|O_CREAT, 0644) = 3 <0.000020>`, Call, 1234, 1700000000123456, "openat", `AT_FDCWD, "/data/a b", O_RDWR|O_CREAT, 0644`, 3, "", 20},
		{"stderr -f", `[pid  77] 1700000000.000001 write(3, "x)\"", 3) = 3 <0.000005>`, Call, 77, 1700000000000001, "write", `3, "x)\"", 3`, 3, "", 5},
		{"no pid", `1700000000.5 close(3) = 0`, Call, 0, 1700000000500000, "close", "3", 0, "", -1},
		{"error", `12 1.000000 open("/x", O_RDONLY) = -1 ENOENT (No such file or directory) <0.000003>`, Call, 12, 1000000, "open", `"/x", O_RDONLY`, -1, "ENOENT", 3},
		{"unfinished", `12 1.000001 read(4,  <unfinished ...>`, Unfinished, 12, 1000001, "read", "4", 0, "", -1},
		{"resumed", `12 1.000009 <... read resumed>"abc", 4096) = 3 <0.000008>`, Resumed, 12, 1000009, "read", `"abc", 4096`, 3, "", 8},
		{"signal", `12 1.5 --- SIGCHLD {si_signo=SIGCHLD, si_code=CLD_EXITED} ---`, Signal, 12, 1500000, "SIGCHLD", "", 0, "", -1},
		{"old android signal", `--- SIGSEGV (Segmentation fault) @ 0 (0) ---`, Signal, 0, -1, "SIGSEGV", "", 0, "", -1},
		{"exit", `12 2.0 +++ exited with 0 +++`, Exit, 12, 2000000, "", "exited with 0", 0, "", -1},
		{"-tt clock", `300 10:00:01.000002 fsync(5) = 0`, Call, 300, 36001000002, "fsync", "5", 0, "", -1},
		{"-y fd", `5 1.0 pwrite64(3</d/x.db>, ""..., 4096, 8192) = 4096`, Call, 5, 1000000, "pwrite64", `3</d/x.db>, ""..., 4096, 8192`, 4096, "", -1},
		{"mmap hex", `5 1.0 mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, 3, 0) = 0x7f00`, Call, 5, 1000000, "mmap", "NULL, 4096, PROT_READ, MAP_PRIVATE, 3, 0", 0x7f00, "", -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev, _, msg := parseLine(tt.line)
			if msg != "" {
				t.Fatalf("skipped: %s", msg)
			}
			if ev.Kind != tt.kind || ev.PID != tt.pid || ev.Time != tt.time || ev.Name != tt.call || ev.Args != tt.args || ev.RetVal != tt.ret || ev.Errno != tt.errno || ev.Dur != tt.dur {
				t.Errorf("got %+v", ev)
			}
		})
	}
}

func TestParseBadLinesPositioned(t *testing.T) {
	log := "1 1.0 close(3) = 0\n" +
		"1 1.1 write(3, \"abc\n" + // truncated mid-string
		"Process 1 attached\n" + // a note: dropped silently
		"garbage here\n" +
		"\n" +
		"1 1.2 read(3, \"\", 5) = 0\n"
	l, err := Parse(strings.NewReader(log), "t.log")
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Events) != 2 || l.Lines != 6 {
		t.Fatalf("events %d lines %d, want 2 and 6", len(l.Events), l.Lines)
	}
	if len(l.Skipped) != 2 || l.Skipped[0].Line != 2 || l.Skipped[1].Line != 4 {
		t.Fatalf("skipped %v, want lines 2 and 4", l.Skipped)
	}
	if got := l.Skipped[0].Error(); !strings.HasPrefix(got, "t.log:2: write") {
		t.Errorf("message %q not positioned", got)
	}
	if l.Clock != "epoch" {
		t.Errorf("clock %q", l.Clock)
	}
}

func TestUnquote(t *testing.T) {
	for in, want := range map[string]string{
		`"a\tb"`:        "a\tb",
		`"\377\0x"`:     "\xff\x00x",
		`"\x41\"q"`:     `A"q`,
		`"/data/\303("`: "/data/\xc3(",
	} {
		got, _, ok := Unquote(in)
		if !ok || got != want {
			t.Errorf("Unquote(%s) = %q, %v; want %q", in, got, ok, want)
		}
	}
	if _, cut, ok := Unquote(`"abc"...`); !ok || !cut {
		t.Error("cut string not recognised")
	}
	if got := SplitArgs(`3, "a, b", {st_mode=S_IFREG, st_size=3}, [1, 2], 5`); len(got) != 5 || got[1] != `"a, b"` {
		t.Errorf("SplitArgs = %q", got)
	}
}

func TestParseLongLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "long.log")
	data := "1 1.0 write(3, \"" + strings.Repeat("a", maxLine+10) + "\", 5) = 5\n2 1.0 close(3) = 0\n"
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Events) != 1 || len(l.Skipped) != 1 || l.Skipped[0].Line != 1 {
		t.Fatalf("events %d, skipped %v", len(l.Events), l.Skipped)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`1234  1700000000.123456 openat(AT_FDCWD, "/data/a b", O_RDWR|O_CREAT, 0644) = 3 <0.000020>`,
		`12 1.000001 read(4,  <unfinished ...>` + "\n" + `12 1.000009 <... read resumed>"abc", 4096) = 3 <0.000008>`,
		`[pid 3] 10:00:00 --- SIGCHLD {} ---`, `+++ killed by SIGKILL +++`, `"\x`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := Parse(strings.NewReader(string(data)), "fuzz")
		if err != nil {
			t.Fatal(err)
		}
		merged, left := Merge(l.Events)
		if len(merged)+len(left) > len(l.Events) {
			t.Fatalf("merge made events: %d + %d from %d", len(merged), len(left), len(l.Events))
		}
		for _, ev := range merged {
			for _, a := range SplitArgs(ev.Args) {
				Unquote(a)
				FD(a)
			}
		}
	})
}

func TestMerge(t *testing.T) {
	log := `1 1.0 pwrite64(3, "ab", 2, 8 <unfinished ...>
2 1.1 read(4,  <unfinished ...>
2 1.2 <... read resumed>"xy", 10) = 2 <0.1>
1 1.3 <... pwrite64 resumed>) = 2 <0.3>
1 1.4 <... close resumed>) = 0
2 1.5 fsync(4 <unfinished ...>
`
	l, err := Parse(strings.NewReader(log), "m")
	if err != nil {
		t.Fatal(err)
	}
	merged, left := Merge(l.Events)
	if len(merged) != 2 || len(left) != 2 {
		t.Fatalf("merged %d, unmatched %d; want 2, 2", len(merged), len(left))
	}
	if m := merged[0]; m.Name != "pwrite64" || m.Args != `3, "ab", 2, 8` || m.Time != 1000000 || m.RetVal != 2 || m.Dur != 300000 || m.Line != 1 {
		t.Errorf("pwrite merged as %+v", m)
	}
	if m := merged[1]; m.Name != "read" || m.Args != `4, "xy", 10` || m.Line != 2 {
		t.Errorf("read merged as %+v", m)
	}
	if left[0].Line != 5 || left[1].Line != 6 {
		t.Errorf("unmatched %+v", left)
	}
}
