package trace

import (
	"bytes"
	"encoding/json"
	"testing"
)

type teEvent struct {
	Name string         `json:"name"`
	Cat  string         `json:"cat"`
	Ph   string         `json:"ph"`
	PID  int            `json:"pid"`
	TID  uint32         `json:"tid"`
	TS   *float64       `json:"ts"`
	Dur  *float64       `json:"dur"`
	Args map[string]any `json:"args"`
}

func TestWritePerfetto(t *testing.T) {
	for _, tc := range []struct {
		name                   string
		tr                     *Trace
		wantUnroll, wantImplic int
	}{
		// fixture: leaf and throwIt unrolled; thread 5's main, work and
		// leaf are still open at the end.
		{"fixture", fixture(t), 2, 3},
		{"deep recursion", deepRecursion(t), 0, 0},
		{"empty", &Trace{Threads: []Thread{{ID: 9, Name: "idle"}}}, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := WritePerfetto(&buf, tc.tr); err != nil {
				t.Fatal(err)
			}
			var doc struct {
				DisplayTimeUnit string    `json:"displayTimeUnit"`
				TraceEvents     []teEvent `json:"traceEvents"`
			}
			dec := json.NewDecoder(&buf)
			dec.DisallowUnknownFields()
			if err := dec.Decode(&doc); err != nil {
				t.Fatalf("not valid trace-event JSON: %v", err)
			}
			enters := map[uint32]int{}
			lastWall := map[uint32]int64{}
			for _, e := range tc.tr.Events {
				if e.Action == Enter {
					enters[e.Thread]++
				}
				lastWall[e.Thread] = e.Wall
			}
			ms := tc.tr.MethodByID()
			names := map[string]bool{}
			for _, m := range ms {
				names[m.FullName()] = true
			}
			var meta, unroll, implicit int
			xs := map[uint32]int{}
			stacks := map[uint32][]float64{} // open end times per tid
			lastTS := map[uint32]float64{}
			const eps = 1e-6
			for i, e := range doc.TraceEvents {
				switch e.Ph {
				case "M":
					meta++
					if e.Args["name"] == nil {
						t.Errorf("event %d: metadata without a name", i)
					}
					continue
				case "X":
				default:
					t.Fatalf("event %d: phase %q", i, e.Ph)
				}
				if e.TS == nil || e.Dur == nil || *e.Dur < 0 {
					t.Fatalf("event %d: ts/dur missing or negative: %+v", i, e)
				}
				if !names[e.Name] {
					t.Errorf("event %d: name %q is no method", i, e.Name)
				}
				if _, ok := e.Args["cpu_us"].(float64); !ok {
					t.Errorf("event %d: no cpu_us", i)
				}
				switch e.Args["exit"] {
				case "unroll":
					unroll++
				case "implicit":
					implicit++
				}
				xs[e.TID]++
				ts, end := *e.TS, *e.TS+*e.Dur
				if ts < lastTS[e.TID]-eps {
					t.Errorf("event %d: tid %d not in start order", i, e.TID)
				}
				lastTS[e.TID] = ts
				if end > float64(lastWall[e.TID])/1e3+eps {
					t.Errorf("event %d: ends at %v, after the thread's last event %v", i, end, float64(lastWall[e.TID])/1e3)
				}
				// Nesting: slices are in start order, so the open
				// slices that end before this one ends must have ended
				// by the time it starts; the rest enclose it.
				st := stacks[e.TID]
				for len(st) > 0 && st[len(st)-1] < end-eps {
					if st[len(st)-1] > ts+eps {
						t.Errorf("event %d (%s on tid %d, %v–%v) overlaps a slice ending at %v", i, e.Name, e.TID, ts, end, st[len(st)-1])
					}
					st = st[:len(st)-1]
				}
				stacks[e.TID] = append(st, end)
			}
			if meta != 1+len(tc.tr.Threads) {
				t.Errorf("%d metadata events, want %d", meta, 1+len(tc.tr.Threads))
			}
			for tid, n := range enters {
				if xs[tid] != n {
					t.Errorf("tid %d: %d slices, want one per enter, %d", tid, xs[tid], n)
				}
			}
			if unroll != tc.wantUnroll || implicit != tc.wantImplic {
				t.Errorf("%d unrolled and %d implicitly closed slices, want %d and %d", unroll, implicit, tc.wantUnroll, tc.wantImplic)
			}
		})
	}
}
