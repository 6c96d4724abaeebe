package replay

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestParseLines(t *testing.T) {
	tests := []struct {
		line string
		want Entry
	}{
		{`2 701422 open "/system/fonts/DroidSans.ttf" O_RDONLY|O_LARGEFILE 89`,
			Entry{TID: 2, Time: 701422, Call: Open, Path: "/system/fonts/DroidSans.ttf", Quoted: true, Flags: "O_RDONLY|O_LARGEFILE", Ret: 89}},
		{`1 0 open data/data O_RDWR|O_CREAT|O_LARGEFILE 36`,
			Entry{TID: 1, Call: Open, Path: "data/data", Flags: "O_RDWR|O_CREAT|O_LARGEFILE", Ret: 36}},
		// Mobigen's synthetic open for an fd first seen in a write.
		{`1 0 open /data/data O_WRONLY|O_CREAT|O_TRUNC|O_LARGEFILE 36`,
			Entry{TID: 1, Call: Open, Path: "/data/data", Flags: "O_WRONLY|O_CREAT|O_TRUNC|O_LARGEFILE", Ret: 36}},
		// Path reduction leaves stray quotes in unquoted paths.
		{`3 5 open dev/fimg2d" O_RDWR|O_LARGEFILE 40`,
			Entry{TID: 3, Time: 5, Call: Open, Path: `dev/fimg2d"`, Flags: "O_RDWR|O_LARGEFILE", Ret: 40}},
		{`16 16965906 open NotificationPermissions.db"/nil O_RDWR|O_CREAT|O_LARGEFILE -1`,
			Entry{TID: 16, Time: 16965906, Call: Open, Path: `NotificationPermissions.db"/nil`, Flags: "O_RDWR|O_CREAT|O_LARGEFILE", Ret: -1}},
		// A failed read-only open with O_CREAT|O_EXCL keeps its quotes.
		{`16 718377 open "/CachedGeoposition.db" O_RDONLY|O_CREAT|O_EXCL|O_LARGEFILE -1`,
			Entry{TID: 16, Time: 718377, Call: Open, Path: "/CachedGeoposition.db", Quoted: true, Flags: "O_RDONLY|O_CREAT|O_EXCL|O_LARGEFILE", Ret: -1}},
		{`1 1224865 access "/data/data/x/shared_prefs/p.xml" 0`, Entry{TID: 1, Time: 1224865, Call: Access, Path: "/data/data/x/shared_prefs/p.xml", Quoted: true}},
		{`1 9 stat64 "/sdcard/a" -1`, Entry{TID: 1, Time: 9, Call: Stat64, Path: "/sdcard/a", Quoted: true, Ret: -1}},
		{`0 9 lstat64 "/sdcard/a" 0`, Entry{Time: 9, Call: Lstat64, Path: "/sdcard/a", Quoted: true}},
		{`24 16985470 unlink "/data/data/k/cache/index" 0`, Entry{TID: 24, Time: 16985470, Call: Unlink, Path: "/data/data/k/cache/index", Quoted: true}},
		{`1 2 fstat64 36 0`, Entry{TID: 1, Time: 2, Call: Fstat64, FD: 36}},
		{`1 2 close 36 0`, Entry{TID: 1, Time: 2, Call: Close, FD: 36}},
		{`1 2 fsync 36 0`, Entry{TID: 1, Time: 2, Call: Fsync, FD: 36}},
		{`1 2 fdatasync 36 -1`, Entry{TID: 1, Time: 2, Call: Fdatasync, FD: 36, Ret: -1}},
		{`1 2 write 36 4`, Entry{TID: 1, Time: 2, Call: Write, FD: 36, Ret: 4}},
		// A read that failed (EAGAIN on a socket): 812 of them in facebook.
		{`12 209826 read 173 -1`, Entry{TID: 12, Time: 209826, Call: Read, FD: 173, Ret: -1}},
		{`5 18778141 pwrite 77 643072 4096`, Entry{TID: 5, Time: 18778141, Call: Pwrite, FD: 77, Offset: 643072, Ret: 4096}},
		{`5 1 pread 77 0 1024`, Entry{TID: 5, Time: 1, Call: Pread, FD: 77, Ret: 1024}},
		{`5 3 lseek 77 -100 SEEK_END 3996`, Entry{TID: 5, Time: 3, Call: Lseek, FD: 77, Offset: -100, Whence: 2, Ret: 3996}},
		{`5 3 lseek 77 0 SEEK_SET 0`, Entry{TID: 5, Time: 3, Call: Lseek, FD: 77}},
		{`5 3 lseek 77 4096 SEEK_CUR -1`, Entry{TID: 5, Time: 3, Call: Lseek, FD: 77, Offset: 4096, Whence: 1, Ret: -1}},
		// Threads that started before the first thread's first line.
		{`7 -1500 write 3 10`, Entry{TID: 7, Time: -1500, Call: Write, FD: 3, Ret: 10}},
		// Tolerated: CRLF, runs of blanks, a quoted path split at spaces.
		{"1 2 write 36 4\r", Entry{TID: 1, Time: 2, Call: Write, FD: 36, Ret: 4}},
		{"1  2\twrite 36   4  ", Entry{TID: 1, Time: 2, Call: Write, FD: 36, Ret: 4}},
		{`1 2 open "/sdcard/My Photos/a b.jpg" O_RDONLY 5`,
			Entry{TID: 1, Time: 2, Call: Open, Path: "/sdcard/My Photos/a b.jpg", Quoted: true, Flags: "O_RDONLY", Ret: 5}},
	}
	for _, tt := range tests {
		s, err := Parse(strings.NewReader(tt.line), "t.mg")
		if err != nil {
			t.Errorf("%q: %v", tt.line, err)
			continue
		}
		tt.want.Line = 1
		if len(s.Entries) != 1 || !reflect.DeepEqual(s.Entries[0], tt.want) {
			t.Errorf("%q:\n got %+v\nwant %+v", tt.line, s.Entries, tt.want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		script string
		want   string
	}{
		{"1 0 write 3 4\n1 1 write x 4\n", `script.mg:2: write: fd "x" is not a number`},
		{"1 0 write 3 4\n\n1 1 write 3 4x\n", `script.mg:3: write: byte count "4x" is not a number`},
		{"x 0 write 3 4\n", `script.mg:1: thread id "x" is not a non-negative number`},
		{"-1 0 write 3 4\n", `script.mg:1: thread id "-1" is not a non-negative number`},
		{"1 1.5 write 3 4\n", `script.mg:1: time "1.5" is not a number of microseconds`},
		{"1 0 mmap 3 4\n", `script.mg:1: unknown call "mmap"`},
		{"1 0 openat \"/a\" O_RDONLY 3\n", `script.mg:1: unknown call "openat"`},
		{"1 0\n", `script.mg:1: want <tid> <usec> <call> <args...>, got 2 fields`},
		{"1 0 write 3\n", `script.mg:1: write: want 2 arguments after the call, got 1`},
		{"1 0 write 3 4 5\n", `script.mg:1: write: want 2 arguments after the call, got 3`},
		{"1 0 pwrite 3 4\n", `script.mg:1: pwrite: want 3 arguments after the call, got 2`},
		{"1 0 pread 3 off 4\n", `script.mg:1: pread: offset "off" is not a number`},
		{"1 0 close 99999999999 0\n", `script.mg:1: close: fd "99999999999" is out of range`},
		{"1 0 lseek 3 0 SEEK_SET\n", `script.mg:1: lseek: want 4 arguments after the call, got 3`},
		{"1 0 lseek 3 0 2 0\n", `script.mg:1: lseek: whence "2" is not one of SEEK_SET, SEEK_CUR, SEEK_END, SEEK_DATA, SEEK_HOLE`},
		{"1 0 lseek 3 x SEEK_SET 0\n", `script.mg:1: lseek: offset "x" is not a number`},
		{"1 0 lseek 3 0 SEEK_SET end\n", `script.mg:1: lseek: position "end" is not a number`},
		{"1 0 fsync 3 ok\n", `script.mg:1: fsync: return value "ok" is not a number`},
		{"1 0 open\n", `script.mg:1: open: missing path`},
		{"1 0 open \"/a O_RDONLY 3\n", `script.mg:1: open: unterminated quoted path "\"/a"`},
		{"1 0 open \"/a\" 3\n", `script.mg:1: open: want 2 arguments after the path, got 1`},
		{"1 0 open \"/a\" O_RDONLY fd\n", `script.mg:1: open: fd "fd" is not a number`},
		{"1 0 stat64 \"/a\"\n", `script.mg:1: stat64: want 1 arguments after the path, got 0`},
		{"1 0 unlink \"/a\" zero\n", `script.mg:1: unlink: return value "zero" is not a number`},
	}
	for _, tt := range tests {
		_, err := Parse(strings.NewReader(tt.script), "script.mg")
		var se *SyntaxError
		if !errors.As(err, &se) || err.Error() != tt.want {
			t.Errorf("%q: got %v, want %s", tt.script, err, tt.want)
		}
	}
}

func TestParseLongLine(t *testing.T) {
	script := "1 0 write 3 4\n1 0 access \"/" + strings.Repeat("a", maxLine) + "\" 0\n"
	_, err := Parse(strings.NewReader(script), "s")
	if err == nil || !strings.HasPrefix(err.Error(), "s:2: line longer") {
		t.Fatalf("got %v", err)
	}
}

const sample = `0 -20 open "/proc/meminfo" O_RDONLY|O_LARGEFILE 9
0 -10 read 9 100
0 -5 close 9 0
1 0 open /data/data O_WRONLY|O_CREAT|O_TRUNC|O_LARGEFILE 36
1 0 write 36 4
1 1378 open data/data O_RDWR|O_CREAT|O_LARGEFILE 43
1 1400 pwrite 43 8192 4096
1 1500 pread 43 0 512
1 1550 lseek 43 -512 SEEK_END 7680
1 1600 fsync 43 0
1 1700 fdatasync 43 0
1 1800 fstat64 43 0
1 1900 close 43 0
2 50 access "/data/data/x y/prefs.xml" 0
2 60 stat64 "/data/app" -1
2 70 lstat64 "/data/app" 0
2 80 unlink "/data/data/k/cache/index" 0
2 90 read 173 -1
2 95 open dev/fimg2d" O_RDWR|O_LARGEFILE 40
`

func TestRoundTrip(t *testing.T) {
	s, err := Parse(strings.NewReader(sample), "sample")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if _, err := s.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	if b.String() != sample {
		t.Errorf("written differently:\n%s", b.String())
	}
	s2, err := Parse(&b, "again")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(s.Entries, s2.Entries) {
		t.Error("entries differ after a round trip")
	}
}

func TestWriteRefuses(t *testing.T) {
	for _, e := range []Entry{
		{Call: Access, Path: "/a\nb", Quoted: true},
		{Call: Access, Path: "/a  b", Quoted: true},
		{Call: Access, Path: `a" b`, Quoted: true},
		{Call: Access, Path: "a b"},
		{Call: Access, Path: ""},
		{Call: Access, Path: `"a`},
		{Call: Open, Path: "a", Flags: ""},
		{Call: Open, Path: "a", Flags: "O_RDONLY O_CREAT"},
		{Call: 0},
		{Call: Write, TID: -1},
	} {
		s := &Script{Entries: []Entry{e}}
		if _, err := s.WriteTo(&bytes.Buffer{}); err == nil {
			t.Errorf("%+v: written", e)
		}
	}
}

func TestStats(t *testing.T) {
	s, err := Parse(strings.NewReader(sample), "sample")
	if err != nil {
		t.Fatal(err)
	}
	want := Stats{Lines: 19, Threads: 3, Opens: 4, MaxWrite: 4096, MaxRead: 512, Start: -20, End: 1900}
	if got := s.Stats(); got != want {
		t.Errorf("got %+v, want %+v", got, want)
	}
	if d := want.Duration(); d != 1920*time.Microsecond {
		t.Errorf("duration %v", d)
	}
}

// TestRealTraces checks the parser against Mobigen's own sample output
// (shell/mobigen.out.* in ESOS-Lab/Mobibench), which is not redistributed
// here: set DROIDPROF_MOBIGEN_TRACES to a directory holding them.
func TestRealTraces(t *testing.T) {
	dir := os.Getenv("DROIDPROF_MOBIGEN_TRACES")
	if dir == "" {
		t.Skip("DROIDPROF_MOBIGEN_TRACES is not set")
	}
	want := map[string]Stats{
		"mobigen.out.facebook": {Lines: 30819, Threads: 74},
		"mobigen.out.twitter":  {Lines: 16307, Threads: 127},
	}
	for name, w := range want {
		path := filepath.Join(dir, name)
		orig, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		s, err := Parse(bytes.NewReader(orig), name)
		if err != nil {
			t.Fatal(err)
		}
		st := s.Stats()
		if st.Lines != w.Lines || st.Threads != w.Threads {
			t.Errorf("%s: %+v, want %d lines, %d threads", name, st, w.Lines, w.Threads)
		}
		t.Logf("%s: %+v, %v", name, st, st.Duration())
		var b bytes.Buffer
		if _, err := s.WriteTo(&b); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(b.Bytes(), orig) {
			t.Errorf("%s: not written back byte for byte", name)
		}
		if _, err := newPlan(s, t.TempDir()); err != nil {
			t.Errorf("%s: plan: %v", name, err)
		}
	}
}
