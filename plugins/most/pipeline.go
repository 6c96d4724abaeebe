package most

import (
	"bufio"
	"errors"
	"fmt"
	"io"

	"github.com/droidprof/droidprof/storage/tracefs"
)

// Import of ftrace text runs as two stages so that a second core can take
// half the work: a reader goroutine scans lines and parses them (the line,
// and the body of block events), the caller's goroutine attributes them in
// trace order. A CPU profile of the one-goroutine version split about
// 55/45 between the two. Batches amortise the channel operations, and
// used batches go back to the reader so the steady state allocates none.

const (
	batchLen   = 512 // events per batch
	batchesOut = 4   // batches the reader may be ahead of the attributor
)

// parsed is an event with its block fields parsed when it is one of the
// block events: an ftrace line (ev, and blk for the block tracepoints) or
// a line of blkparse's or MOST's text (be).
type parsed struct {
	ev      tracefs.Event
	line    int
	isBlock bool // an ftrace block event: blk holds its body
	isText  bool // a blkparse or MOST line: be holds it
	blk     tracefs.Block
	be      tracefs.BlockEvent
	err     error // ParseBlock's error, reported with the line
}

// batch is what the reader hands over: events, and the reader's error
// (io.EOF at the end) after the last of them.
type batch struct {
	items []parsed
	err   error
}

// readEvents runs next, which parses the next event into p or returns
// io.EOF or an error, in a goroutine and returns the channel of batches and
// the channel that takes used batches back. Closing stop makes the reader
// give up (the attributor failed).
func readEvents(next func(p *parsed) error, stop <-chan struct{}) (<-chan *batch, chan<- *batch) {
	out := make(chan *batch, batchesOut)
	back := make(chan *batch, batchesOut+2)
	for i := 0; i < batchesOut+2; i++ {
		back <- &batch{items: make([]parsed, 0, batchLen)}
	}
	go func() {
		defer close(out)
		for {
			var b *batch
			select {
			case b = <-back:
			case <-stop:
				return
			}
			b.items, b.err = b.items[:0], nil
			for len(b.items) < batchLen {
				b.items = b.items[:len(b.items)+1]
				if err := next(&b.items[len(b.items)-1]); err != nil {
					b.items = b.items[:len(b.items)-1]
					b.err = err
					break
				}
			}
			select {
			case out <- b:
			case <-stop:
				return
			}
			if b.err != nil {
				return
			}
		}
	}()
	return out, back
}

func isBlockEvent(name string) bool {
	return name == "block_bio_queue" || name == "block_getrq" || name == "block_rq_issue" || name == "block_rq_complete"
}

// attributeFtrace runs the two stages over ftrace text.
func (a *attributor) attributeFtrace(tr *tracefs.Reader) error {
	err := a.attributeParsed(func(p *parsed) error {
		ev, err := tr.Next()
		if err != nil {
			return err
		}
		*p = parsed{ev: ev, line: tr.Line()}
		if isBlockEvent(ev.Name) {
			p.isBlock = true
			p.blk, p.err = tracefs.ParseBlock(ev.Name, ev.Body)
		}
		return nil
	})
	if err != nil {
		return err
	}
	// The reader reached the end: its Lost is final (and no longer
	// written — on an error it may still be running).
	a.res.Lost = tr.Lost
	return nil
}

// attributeText runs the two stages over blkparse's or MOST's text, whose
// lines parse parses (ok false: not an event).
func (a *attributor) attributeText(r io.Reader, parse func(string) (tracefs.BlockEvent, bool, error)) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	line := 0
	return a.attributeParsed(func(p *parsed) error {
		for sc.Scan() {
			line++
			be, ok, err := parse(sc.Text())
			if err != nil {
				return fmt.Errorf("line %d: %w: %q", line, err, sc.Text())
			}
			if ok {
				*p = parsed{isText: true, be: be, line: line}
				return nil
			}
		}
		if err := sc.Err(); err != nil {
			return fmt.Errorf("line %d: %w", line+1, err)
		}
		return io.EOF
	})
}

// attributeParsed attributes what next parses, in a second goroutine.
func (a *attributor) attributeParsed(next func(p *parsed) error) error {
	stop := make(chan struct{})
	defer close(stop)
	in, back := readEvents(next, stop)
	for b := range in {
		for i := range b.items {
			p := &b.items[i]
			a.res.Events++
			var err error
			if p.isText {
				a.block(p.be)
				continue
			}
			if p.isBlock {
				err = p.err
				if err == nil {
					a.blockEvent(p.ev, p.blk)
				}
			} else {
				err = a.event(p.ev)
			}
			if err != nil {
				return fmt.Errorf("line %d: %s: %w", p.line, p.ev.Name, err)
			}
		}
		if b.err != nil {
			if errors.Is(b.err, io.EOF) {
				return nil
			}
			return b.err
		}
		back <- b
	}
	return nil
}
