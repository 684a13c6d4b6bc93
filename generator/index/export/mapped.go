package export

// The export reads the index's mapped files in two parts: the side store
// for the records' order (number), bleve for the terms and filters
// (writeShards, writeFilters), then the side store again for what results
// show (compilePatterns, writeDocData); the phases run in that order. When
// Options.Expect is set, the export lets go of the pages of the part it
// leaves and says what the next one will take, so that only one part is
// resident beside the heap at a time (index.Index.EvictSide).

// leaveSide lets go of the side store's pages once the records are
// numbered; bleve comes next.
func (x *exportRun) leaveSide() error {
	if x.opts.Expect != nil {
		x.ex.ix.EvictSide()
		x.opts.Expect(x.ex.ix.BleveBytes())
	}
	return nil
}

// leaveBleve lets go of bleve's pages once the shards and filters are
// written; the side store comes next.
func (x *exportRun) leaveBleve() error {
	if x.opts.Expect != nil {
		x.ex.ix.EvictBleve()
		x.opts.Expect(x.ex.ix.SideBytes())
	}
	return nil
}
