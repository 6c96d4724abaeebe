package tracefs

import (
	"strings"
	"testing"
)

func TestParseBlkparse(t *testing.T) {
	tests := []struct {
		line string
		ok   bool
		want BlockEvent
		err  string
	}{
		{"  8,0    3       11     0.009507758   697  C   W 223490 + 56 [0]", true,
			BlockEvent{Time: 9507758, Action: 'C', Pid: 697, Block: Block{Major: 8, RWBS: "W", Sector: 223490, Sectors: 56, HasError: true}}, ""},
		{"  7,0    1        3     1.000000001  1234  Q  WS 100 + 8 [sqlite app]", true,
			BlockEvent{Time: 1000000001, Action: 'Q', Pid: 1234, Comm: "sqlite app", Block: Block{Major: 7, RWBS: "WS", Sector: 100, Sectors: 8, Comm: "sqlite app"}}, ""},
		{"259,0    0        9     0.5  88  D   R 2048 + 8 [kworker/0:1H]", true,
			BlockEvent{Time: 5e8, Action: 'D', Pid: 88, Comm: "kworker/0:1H", Block: Block{Major: 259, RWBS: "R", Sector: 2048, Sectors: 8, Comm: "kworker/0:1H"}}, ""},
		{"  8,0    0       12     0.2  0  C  FN 0 [0]", true,
			BlockEvent{Time: 2e8, Action: 'C', Block: Block{Major: 8, RWBS: "FN", HasError: true}}, ""},
		{"  8,0    0       13     0.3  0  C   W 8 + 8 (   12345) [0]", true,
			BlockEvent{Time: 3e8, Action: 'C', Block: Block{Major: 8, RWBS: "W", Sector: 8, Sectors: 8, HasError: true}}, ""},
		{"  8,0    0       14     0.4  5  P   N [fio]", false, BlockEvent{}, ""},
		{"CPU0 (8,0):", false, BlockEvent{}, ""},
		{" Reads Queued:           0,        0KiB\t Writes Queued:          20,       80KiB", false, BlockEvent{}, ""},
		{"", false, BlockEvent{}, ""},
		{"  8,0    3       11     0.x   697  C   W 1 + 8 [0]", false, BlockEvent{}, "bad timestamp"},
		{"  8,0    3       11     0.1   697  C   W x + 8 [0]", false, BlockEvent{}, "bad sector"},
		{"  8,0    3       11     0.1   697  C   W 1 + y [0]", false, BlockEvent{}, "bad sector count"},
		{"  8,0    3       11     0.1   697  C   W 1 + 8 [oops]", false, BlockEvent{}, "bad completion error"},
		{"  8,0    3", false, BlockEvent{}, "7 (dev"},
	}
	for _, tt := range tests {
		ev, ok, err := ParseBlkparse(tt.line)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%q: err = %v, want %q", tt.line, err, tt.err)
			}
			continue
		}
		if err != nil || ok != tt.ok || ev != tt.want {
			t.Errorf("%q:\n got %+v %v %v\nwant %+v %v", tt.line, ev, ok, err, tt.want, tt.ok)
		}
	}
}

func TestParseMostTSV(t *testing.T) {
	tests := []struct {
		line string
		ok   bool
		want BlockEvent
		err  string
	}{
		{"0.097858699\tC\tWAS\t23901648\t8\t103336\tGCMReader\tD\t/data/com.google.android.gms/databases/rmq.db-journal", true,
			BlockEvent{Time: 97858699, Action: 'C', Pid: 3336, Tag: 1, Comm: "GCMReader", Kind: 'D', Path: "/data/com.google.android.gms/databases/rmq.db-journal",
				Block: Block{RWBS: "WAS", Sector: 23901648, Sectors: 8, Comm: "GCMReader"}}, ""},
		{"    5.000000001\tD\tW\t    2048\t   8\t 503336\t           GCMReader", true,
			BlockEvent{Time: 5000000001, Action: 'D', Pid: 3336, Tag: 5, Comm: "GCMReader", Block: Block{RWBS: "W", Sector: 2048, Sectors: 8, Comm: "GCMReader"}}, ""},
		{"1.0\tC\tW\t8\t8\t12\tjbd2/mmcblk0p12\tJ", true,
			BlockEvent{Time: 1e9, Action: 'C', Pid: 12, Comm: "jbd2/mmcblk0p12", Kind: 'J', Block: Block{RWBS: "W", Sector: 8, Sectors: 8, Comm: "jbd2/mmcblk0p12"}}, ""},
		{"", false, BlockEvent{}, ""},
		{"1.0\tC\tW\t8\t8\t12", false, BlockEvent{}, "6 tab-separated fields"},
		{"1.0\tC\tW\t8\t8\tx\tcomm", false, BlockEvent{}, "bad pid"},
		{"1.0\tC\tW\t8\t8\t1\tcomm\tQ", false, BlockEvent{}, "bad block tag"},
	}
	for _, tt := range tests {
		ev, ok, err := ParseMostTSV(tt.line)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%q: err = %v, want %q", tt.line, err, tt.err)
			}
			continue
		}
		if err != nil || ok != tt.ok || ev != tt.want {
			t.Errorf("%q:\n got %+v %v %v\nwant %+v %v", tt.line, ev, ok, err, tt.want, tt.ok)
		}
	}
}
