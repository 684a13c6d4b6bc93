package export

import (
	"encoding/json"
	"fmt"
	"runtime"
)

// writeDocData is the phase doc data: DocsPerFile records per file, in doc
// number order. Result cards (r/) and pattern programs (m/) go to separate
// chunks: a result list needs only the cards; pattern programs (a third of
// the bytes) load only for paste matching, in coarser chunks to save
// files.
func (x *exportRun) writeDocData() error {
	opts, inc, n := x.opts, x.inc, len(x.docs)
	per := opts.DocsPerFile
	// Each file's records are read and encoded beside the writing.
	err := eachInOrder((n+per-1)/per, runtime.GOMAXPROCS(0), func(f int) ([]byte, error) {
		if x.rKeep[f] {
			return nil, nil
		}
		var cards cardColumns
		for i := f * per; i < min((f+1)*per, n); i++ {
			d, err := x.data(i)
			if err != nil {
				return nil, err
			}
			cards.add(d, opts.SnippetRunes)
		}
		return json.Marshal(cards)
	}, func(f int, b []byte) error {
		if x.rKeep[f] {
			x.rHash = append(x.rHash, inc.prev.RHashes[f])
			return nil
		}
		h, err := x.w.script("r", fmt.Sprintf("r/%04d", f), string(b))
		x.rHash = append(x.rHash, h)
		return err
	})
	if err != nil {
		return err
	}
	if opts.Pattern != nil {
		for f := 0; f*opts.PatternsPerFile < n; f++ {
			if x.mKeep[f] {
				x.mHash = append(x.mHash, inc.prev.MHashes[f])
				continue
			}
			lo, hi := f*opts.PatternsPerFile, min((f+1)*opts.PatternsPerFile, n)
			progs := make([]json.RawMessage, 0, hi-lo)
			for i := lo; i < hi; i++ {
				p := x.patterns[i]
				if p == nil {
					p = json.RawMessage("null")
				}
				progs = append(progs, p)
			}
			b, err := json.Marshal(progs)
			if err != nil {
				return err
			}
			h, err := x.w.script("m", fmt.Sprintf("m/%04d", f), string(b))
			if err != nil {
				return err
			}
			x.mHash = append(x.mHash, h)
		}
	}
	x.next.RHashes, x.next.MHashes = x.rHash, x.mHash
	return nil
}
