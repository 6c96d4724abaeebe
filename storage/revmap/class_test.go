package revmap

import (
	"bytes"
	"strings"
	"testing"
)

func TestClassify(t *testing.T) {
	for _, tt := range []struct {
		path string
		want Class
	}{
		{"/data/data/com.app/databases/rmq.db", ClassDB},
		{"/data/rmq.db-journal", ClassJournal},
		{"/droidprof-most/test.db0_0", ClassDB},
		{"/droidprof-most/test.db0_0-journal", ClassJournal},
		{"/data/x.dbx", ClassOther},
		{"/data/x.sqlite-journal", ClassJournal},
		{"/data/rmq.db-mj3A4B5C6D", ClassJournal},
		{"/data/rmq.db-wal", ClassWAL},
		{"/data/rmq.db-shm", ClassSHM},
		{"/system/lib/libc.so", ClassExec},
		{"/data/app/base.apk", ClassExec},
		{"/data/dalvik-cache/classes.dex", ClassExec},
		{"/data/prefs.xml", ClassResource},
		{"/sdcard/DCIM/IMG.JPG", ClassMultimedia},
		{"/data/x.tmp", ClassTemp},
		{"/data/my-file", ClassOther},
		{"/data/README", ClassOther},
		{"", ClassNone},
	} {
		if got := Classify(tt.path); got != tt.want {
			t.Errorf("Classify(%q) = %v, want %v", tt.path, got, tt.want)
		}
	}
}

func TestReadExt4Errors(t *testing.T) {
	for _, tt := range []struct {
		name string
		img  []byte
		want string
	}{
		{"short", make([]byte, 100), "offset 1024"},
		{"bad magic", make([]byte, 4096), "magic 0"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadExt4(bytes.NewReader(tt.img))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want it to name %q", err, tt.want)
			}
		})
	}
}
