package cleaner

import (
	"bytes"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/storage/replay"
	"github.com/droidprof/droidprof/storage/strace"
)

func clean(t *testing.T, log string, o Options) *Result {
	t.Helper()
	l, err := strace.Parse(strings.NewReader(log), "t.log")
	if err != nil {
		t.Fatal(err)
	}
	return Clean(l, o)
}

func render(t *testing.T, s *replay.Script) string {
	t.Helper()
	var b bytes.Buffer
	if _, err := s.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestWorkedExamples runs the rules of mobigen.rb (androstep-tools.md §2.2,
// numbered as there) on small logs. want is what this cleaner writes;
// original says what mobigen.rb writes where it differs (a deliberate fix).
func TestWorkedExamples(t *testing.T) {
	tests := []struct {
		name, log string
		paths     string
		want      string
		original  string
		dropped   map[string]int
	}{{
		name: "rule 1-2,5: thread ids by first appearance, grouped by thread, µs from the first call",
		log: `200 100.000000 openat(AT_FDCWD, "/data/a", O_RDONLY|O_LARGEFILE) = 3
100 100.000010 openat(AT_FDCWD, "/data/b", O_RDONLY) = 4
200 100.000020 read(3, "xy", 4096) = 2
100 100.000030 close(4) = 0
`,
		want: `0 0 open "/data/a" O_RDONLY 3
0 20 read 3 2
1 10 open "/data/b" O_RDONLY 4
1 30 close 4 0
`,
	}, {
		name: "rule 3: signals, exits and unknown calls dropped",
		log: `1 5.0 --- SIGCHLD {si_signo=SIGCHLD} ---
1 5.000001 mmap(NULL, 4096, PROT_READ, MAP_SHARED, 3, 0) = 0x7f00
1 5.000002 fsync(7) = 0
1 5.000003 +++ exited with 0 +++
`,
		want:     "0 0 open /data/data O_RDWR|O_CREAT 7\n0 0 fsync 7 0\n",
		original: "0 1 fsync 7 0 (no open: mobigen.rb inserted opens only before reads and writes)",
		dropped:  map[string]int{ReasonSignal: 1, ReasonExit: 1, ReasonNotIO: 1},
	}, {
		name: "rule 4: unfinished/resumed merged, start time kept",
		log: `1 1.000000 openat(AT_FDCWD, "/d/x", O_RDWR|O_CREAT|O_CLOEXEC, 0644) = 5
1 1.000100 pwrite64(5, "abcd", 4, 8192 <unfinished ...>
2 1.000150 openat(AT_FDCWD, "/d/y", O_RDONLY) = 6
1 1.000200 <... pwrite64 resumed>) = 4
`,
		want: `0 0 open "/d/x" O_RDWR|O_CREAT 5
0 100 pwrite 5 8192 4
1 150 open "/d/y" O_RDONLY 6
`,
		original: "pwrite offset 8192/2^32 = 0",
	}, {
		name: "rule 6: error text cut, -1 kept",
		log:  `1 1.0 stat("/data/nope", 0x7ffc) = -1 ENOENT (No such file or directory)` + "\n",
		want: "0 0 stat64 \"/data/nope\" -1\n",
	}, {
		name: "rule 7: ashmem opens, their I/O and close dropped",
		log: `1 1.0 openat(AT_FDCWD, "/dev/ashmem", O_RDWR) = 9
1 1.000001 write(9, "x", 1) = 1
1 1.000002 close(9) = 0
1 1.000003 openat(AT_FDCWD, "/data/f", O_RDONLY) = 9
1 1.000004 read(9, "x", 1) = 1
`,
		want:    "0 0 open \"/data/f\" O_RDONLY 9\n0 1 read 9 1\n",
		dropped: map[string]int{ReasonPlatform: 3},
	}, {
		name: "rule 8: an open inserted before the first use of an fd opened before the capture, once",
		log: `1 1.0 write(12, "abc", 3) = 3
1 1.000010 write(12, "abc", 3) = 3
1 1.000020 openat(AT_FDCWD, "/data/z", O_WRONLY|O_CREAT|O_TRUNC) = 13
1 1.000030 write(13, "a", 1) = 1
`,
		want: `0 0 open /data/data O_RDWR|O_CREAT 12
0 0 write 12 3
0 10 write 12 3
0 20 open "/data/z" O_WRONLY|O_CREAT|O_TRUNC 13
0 30 write 13 1
`,
		original: "a second open /data/data inserted before write 13 (real opens were never recorded)",
	}, {
		name: "rule 9: names read exactly (openat, readlink, statfs)",
		log: `1 1.0 readlink("/proc/self/exe", "/bin/x", 4096) = 6
1 1.000001 statfs("/data", {f_type=EXT2_SUPER_MAGIC}) = 0
1 1.000002 newfstatat(AT_FDCWD, "/data/l", {st_mode=S_IFLNK}, AT_SYMLINK_NOFOLLOW) = 0
`,
		want:     "0 0 lstat64 \"/data/l\" 0\n",
		original: "readlink taken for read, statfs for stat",
		dropped:  map[string]int{ReasonNotIO: 2},
	}, {
		name:  "rule 10: read-only paths quoted whole; other opens reduced to two components (paths = mobigen)",
		paths: "mobigen",
		log: `1 1.0 openat(AT_FDCWD, "/data/data/com.fb/databases/a.db", O_RDWR|O_CREAT|O_LARGEFILE, 0660) = 30
1 1.000001 openat(AT_FDCWD, "/system/fonts/R.ttf", O_RDONLY|O_LARGEFILE) = 31
`,
		want:     "0 0 open data/data O_RDWR|O_CREAT 30\n0 1 open \"/system/fonts/R.ttf\" O_RDONLY 31\n",
		original: "flags kept verbatim (O_RDWR|O_CREAT|O_LARGEFILE)",
	}, {
		name: "fixes: failed data calls and std streams dropped, readv/pwritev sized by return",
		log: `1 1.0 write(1, "hi\n", 3) = 3
1 1.000001 openat(AT_FDCWD, "/d/q", O_RDWR) = 3
1 1.000002 read(3, 0x1, 10) = -1 EAGAIN (Resource temporarily unavailable)
1 1.000003 writev(3, [{iov_base="ab", iov_len=2}, {iov_base="c", iov_len=1}], 2) = 3
1 1.000004 pwritev(3, [{iov_base="ab", iov_len=2}], 1, 4096) = 2
`,
		want:    "0 0 open \"/d/q\" O_RDWR 3\n0 2 write 3 3\n0 3 pwrite 3 4096 2\n",
		dropped: map[string]int{ReasonStdStream: 1, ReasonFailedData: 1},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := clean(t, tt.log, Options{Paths: tt.paths})
			if got := render(t, res.Script); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s\n(mobigen.rb: %s)", got, tt.want, tt.original)
			}
			for r, n := range tt.dropped {
				if res.Stats.Dropped[r] != n {
					t.Errorf("dropped[%s] = %d, want %d (all: %v)", r, res.Stats.Dropped[r], n, res.Stats.Dropped)
				}
			}
			// Whatever the cleaner writes, storage/replay must read back.
			if _, err := replay.Parse(strings.NewReader(render(t, res.Script)), "x"); err != nil {
				t.Errorf("replay cannot read the script: %v", err)
			}
		})
	}
}

func TestTable3(t *testing.T) {
	log := `10 1.0 openat(AT_FDCWD, "/d/a", O_RDWR|O_CREAT, 0644) = 3
11 1.5 openat(AT_FDCWD, "/d/b", O_RDONLY) = 4
10 2.0 pwrite64(3, "", 100, 0) = 100
11 2.5 pread64(4, "", 30, 10) = 30
11 3.0 read(4, "", 7) = 7
10 3.5 close(3) = 0
12 3.5 --- SIGALRM {} ---
`
	st := clean(t, log, Options{}).Stats
	if st.StraceLines != 7 || st.ScriptLines != 6 || st.Threads != 2 || st.Files != 2 || st.WriteBytes != 100 || st.ReadBytes != 37 || st.DurationUS != 2500000 {
		t.Errorf("stats %+v", st)
	}
	if st.Calls["open"] != 2 || st.Calls["pread"] != 1 {
		t.Errorf("calls %v", st.Calls)
	}
}

func TestBadInputPositioned(t *testing.T) {
	log := "1 1.0 openat(AT_FDCWD, \"/d/\\377x\", O_RDONLY) = 3\n" +
		"1 1.1 frobnicate(3) = 0\n" +
		"1 1.2 <... read resumed>\"\", 3) = 3\n" +
		"1 1.3 write(3, \"ab\n" +
		"2 1.4 read(3,  <unfinished ...>\n" +
		"1 1.5 openat(AT_FDCWD, \"/d/a\tb  c\", O_RDONLY) = 4\n"
	res := clean(t, log, Options{})
	want := map[string]int{ReasonNotIO: 1, ReasonOrphan: 1, ReasonUnparsed: 1, ReasonUnresumed: 1}
	for r, n := range want {
		if res.Stats.Dropped[r] != n {
			t.Errorf("dropped[%s] = %d, want %d", r, res.Stats.Dropped[r], n)
		}
	}
	lines := map[int]bool{}
	for _, w := range res.Warnings {
		lines[w.Line] = true
		if !strings.HasPrefix(w.Error(), "t.log:") {
			t.Errorf("warning %q not positioned", w.Error())
		}
	}
	for _, l := range []int{1, 3, 4, 5, 6} {
		if !lines[l] {
			t.Errorf("no warning on line %d: %v", l, res.Warnings)
		}
	}
	if res.Stats.ScriptLines != 2 {
		t.Errorf("kept %d lines, want the two opens", res.Stats.ScriptLines)
	}
	if _, err := replay.Parse(strings.NewReader(render(t, res.Script)), "x"); err != nil {
		t.Errorf("replay cannot read the script: %v", err)
	}
}

func FuzzClean(f *testing.F) {
	f.Add([]byte("1 1.0 openat(AT_FDCWD, \"/d\", O_RDWR) = 3\n1 1.1 pwrite64(3, \"\", 5, 7 <unfinished ...>\n2 1.2 close(3) = 0\n1 1.3 <... pwrite64 resumed>) = 5\n"))
	f.Add([]byte("1 1.0 newfstatat(5</d>, \"\", {}, AT_EMPTY_PATH) = 0\n1 1 unlinkat(AT_FDCWD, \"a\", AT_REMOVEDIR) = 0"))
	f.Add([]byte("1 1.0 openat(AT_FDCWD, \"/d\", O_RDWR) = 3\n1 1.1 clone(child_stack=NULL, flags=SIGCHLD) = 2\n2 1.2 dup2(3, 7) = 7\n2 1.3 _llseek(7, 0, [4096], SEEK_END) = 0\n2 1.4 write(7, \"\", 3) = 3\n2 1.5 +++ exited with 0 +++\n1 1.6 fcntl(3, F_DUPFD, 10) = 10\n1 1.7 lseek(10, 5, SEEK_SET) = 5\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := strace.Parse(bytes.NewReader(data), "fuzz")
		if err != nil {
			t.Fatal(err)
		}
		res := Clean(l, Options{})
		var b bytes.Buffer
		if _, err := res.Script.WriteTo(&b); err != nil {
			t.Fatalf("cleaned script cannot be written: %v", err)
		}
		if _, err := replay.Parse(&b, "x"); err != nil {
			t.Fatalf("cleaned script does not read back: %v", err)
		}
		Clean(l, Options{Paths: "mobigen"})
	})
}
