package tracefs

import (
	"io"
	"strings"
	"testing"
)

func TestParseLine(t *testing.T) {
	tests := []struct {
		name, line string
		want       Event
		ok         bool
		err        string
	}{
		{"trace_pipe", "            bash-1234    [001] d..1.  1234.567890: block_rq_issue: 7,0 W 4096 () 8 + 8 none,0,0 [bash]",
			Event{Comm: "bash", Pid: 1234, TGID: -1, CPU: 1, Time: 1234567890000, Name: "block_rq_issue", Body: "7,0 W 4096 () 8 + 8 none,0,0 [bash]"}, true, ""},
		{"tgid", "  kworker/u4:1-77      (     77) [000] ..... 5.000001: ext4_da_write_pages_extent: dev 7,0 ino 12 lblk 0 len 1 flags ",
			Event{Comm: "kworker/u4:1", Pid: 77, TGID: 77, CPU: 0, Time: 5000001000, Name: "ext4_da_write_pages_extent", Body: "dev 7,0 ino 12 lblk 0 len 1 flags "}, true, ""},
		{"comm with space and dash", "Binder:12 a-b-99 [003] 10.5: jbd2_start_commit: dev 7,0 transaction 3 sync 0",
			Event{Comm: "Binder:12 a-b", Pid: 99, TGID: -1, CPU: 3, Time: 10500000000, Name: "jbd2_start_commit", Body: "dev 7,0 transaction 3 sync 0"}, true, ""},
		{"unknown tgid", "<...>-5 (-------) [001] .... 1.000000000: sched_switch: x",
			Event{Comm: "<...>", Pid: 5, TGID: -1, CPU: 1, Time: 1e9, Name: "sched_switch", Body: "x"}, true, ""},
		{"comment", "# tracer: nop", Event{}, false, ""},
		{"lost", "CPU:1 [LOST 42 EVENTS]", Event{}, false, ""},
		{"no cpu", "bash-1 1.0: x: y", Event{}, false, "no [cpu]"},
		{"bad pid", "bash-x [001] 1.0: x: y", Event{}, false, "bad pid"},
		{"bad time", "bash-1 [001] .... 1.x: x: y", Event{}, false, "bad timestamp"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev, ok, err := ParseLine(tt.line)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil || ok != tt.ok || ev != tt.want {
				t.Fatalf("got %+v %v %v, want %+v %v", ev, ok, err, tt.want, tt.ok)
			}
		})
	}
}

func TestParseBlock(t *testing.T) {
	tests := []struct {
		event, body string
		want        Block
	}{
		{"block_bio_queue", "7,0 W 8 + 8 [dd]", Block{Major: 7, RWBS: "W", Sector: 8, Sectors: 8, Comm: "dd"}},
		{"block_rq_issue", "7,3 WS 4096 () 123 + 8 none,0,0 [jbd2/loop3-8]", Block{Major: 7, Minor: 3, RWBS: "WS", Sector: 123, Sectors: 8, Bytes: 4096, Comm: "jbd2/loop3-8"}},
		{"block_rq_issue", "8,0 R 4096 () 99 + 8 [old kernel]", Block{Major: 8, RWBS: "R", Sector: 99, Sectors: 8, Bytes: 4096, Comm: "old kernel"}},
		{"block_rq_complete", "7,0 W () 123 + 8 none,0,0 [0]", Block{Major: 7, RWBS: "W", Sector: 123, Sectors: 8, HasError: true}},
		{"block_rq_complete", "259,1 FWS () 0 + 0 be,0,4 [-5]", Block{Major: 259, Minor: 1, RWBS: "FWS", HasError: true, Error: -5}},
	}
	for _, tt := range tests {
		t.Run(tt.event+" "+tt.body, func(t *testing.T) {
			b, err := ParseBlock(tt.event, tt.body)
			if err != nil || b != tt.want {
				t.Fatalf("got %+v %v, want %+v", b, err, tt.want)
			}
		})
	}
	for _, bad := range []string{"", "x W 1 + 1 [a]", "7,0 W x + 1 [a]", "7,0 W 1 + y [a]"} {
		if _, err := ParseBlock("block_rq_issue", bad); err == nil {
			t.Errorf("ParseBlock(%q): no error", bad)
		}
	}
	if _, err := ParseBlock("block_rq_complete", "7,0 W () 1 + 8 [oops]"); err == nil {
		t.Error("completion with a non-numeric error: no error")
	}
}

func TestField(t *testing.T) {
	body := "dev 7,0 ino 12 flags  lblk 5 pblk 34816 len 1 mflags  ret 1"
	for _, tt := range []struct {
		key, want string
		ok        bool
	}{{"dev", "7,0", true}, {"ino", "12", true}, {"flags", "", true}, {"lblk", "5", true}, {"pblk", "34816", true}, {"mflags", "", true}, {"ret", "1", true}, {"nope", "", false}} {
		if v, ok := Field(body, tt.key); v != tt.want || ok != tt.ok {
			t.Errorf("Field(%q) = %q %v, want %q %v", tt.key, v, ok, tt.want, tt.ok)
		}
	}
	if _, err := FieldUint(body, "dev"); err == nil {
		t.Error("FieldUint(dev): no error")
	}
}

func TestReader(t *testing.T) {
	in := "# tracer: nop\n" +
		"a-1 [000] .... 1.000000: x: y\n" +
		"CPU:0 [LOST 7 EVENTS]\n" +
		"a-1 [000] .... 2.000000: x: z\n" +
		"garbage line\n"
	r := NewReader(strings.NewReader(in))
	var got []string
	for {
		ev, err := r.Next()
		if err == io.EOF {
			t.Fatal("reached EOF without the error on line 5")
		}
		if err != nil {
			if !strings.Contains(err.Error(), "line 5") {
				t.Fatalf("error %v does not name line 5", err)
			}
			break
		}
		got = append(got, ev.Body)
	}
	if strings.Join(got, ",") != "y,z" || r.Lost != 7 {
		t.Fatalf("got %v lost %d", got, r.Lost)
	}
}

func TestLineCounter(t *testing.T) {
	var st Stats
	lc := &lineCounter{}
	text := "a\nCPU:1 [LOST 3 EVENTS]\nb\nCPU:0 [LO"
	for i := 0; i < len(text); i += 3 {
		lc.add([]byte(text[i:min(i+3, len(text))]), &st)
	}
	lc.add([]byte("ST 4 EVENTS]\n"), &st)
	if st.Lines != 4 || st.Lost != 7 {
		t.Fatalf("lines %d lost %d, want 4 and 7", st.Lines, st.Lost)
	}
}
