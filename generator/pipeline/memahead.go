package pipeline

import "runtime/metrics"

// A rebuild takes about as much fresh memory as the rebuild before it of
// the same site: most of it is every record's summary and the caches'
// tables, whose size follows the dataset, not the change. Each rebuild
// that renders few pages keeps how much anonymous memory it took beside
// its page cache, and the next one tells the command so as it begins
// (Config.ExpectHeap), for a command that can have that memory faulted in
// ahead of its heap on a core the build leaves idle. A build that renders
// many pages (a cold build, a template changed) takes far more, and what
// it took would have the next rebuild fault in memory it does not use; it
// keeps a guess from its record count instead, where no rebuild has kept
// a record yet, so that the first rebuild after a cold build is not the
// only one without memory faulted in ahead.

// The record of a rebuild's memory (internal/cachefile).
const (
	rebuildMemoryKind    = "rebuild memory"
	rebuildMemoryVersion = 1
)

// aheadSlack is how far past the memory faulted in ahead a rebuild's
// growth may go and still be taken for the prefault's own: what the
// process takes beside its heap (stacks, the runtime's own tables).
const aheadSlack = 16 << 20

// maxRebuildMemory bounds what a record may ask for: it is a hint, and a
// wrong one costs memory and a core's time.
const maxRebuildMemory = 1 << 40

// rebuildMemoryPath is the record beside the page cache of the site.
func rebuildMemoryPath(pcPath string) string { return pcPath + ".memory" }

// loadRebuildMemory returns the bytes the previous rebuild took (0:
// unknown).
func loadRebuildMemory(pcPath string) int64 {
	return int64(loadHint(rebuildMemoryPath(pcPath), rebuildMemoryKind, rebuildMemoryVersion, maxRebuildMemory))
}

// saveRebuildMemory keeps the bytes this rebuild took for the next one.
func saveRebuildMemory(pcPath string, n int64) error {
	return saveHint(rebuildMemoryPath(pcPath), rebuildMemoryKind, rebuildMemoryVersion, uint64(n))
}

// memoryAhead is what a build knew, as it began, of the memory it would
// take: what the previous rebuild took, and how much of it the command
// said it would fault in ahead.
type memoryAhead struct{ prev, faulted int64 }

// expectMemory tells the command how much memory the previous rebuild of
// the site took, first thing in a build, before the no-change check: the
// memory faulted in ahead arrives while the build has one core busy.
func expectMemory(c *Config) memoryAhead {
	var m memoryAhead
	m.prev = loadRebuildMemory(pageCachePath(c.CacheDir, c.Out))
	if m.prev > 0 && c.ExpectHeap != nil {
		m.faulted = c.ExpectHeap(m.prev)
	}
	return m
}

// guessPerRecord is what a first rebuild is told it will take for each
// record of the site, before any rebuild has measured it: between what
// the Go runtime had in use in rebuilds of a few records (every record's
// summary, the caches' tables; BENCHMARKS.md, sessions 35 and 36) at
// 100,000 and at 500,000 real-code records. Too little costs the first
// rebuild faults on its own path, and is set right by what it takes; too
// much faults in memory the heap does not use and holds it resident, until
// the rebuild after brings the figure down (keepMemory).
const guessPerRecord = 1792

// keepMemory records the anonymous memory this build took, from its start
// to its largest stage's end, when it was a rebuild that rendered few
// pages; after a build that rendered many, a guess (guessPerRecord) when
// there is no record.
func (b *build) keepMemory() {
	if b.renderedMany || !b.rebuild {
		b.guessMemory()
		return
	}
	if b.startHeld == 0 {
		return
	}
	var peak uint64
	for _, s := range b.rep.Stages {
		peak = max(peak, s.Held)
	}
	if peak <= b.startHeld {
		return
	}
	took := peak - b.startHeld
	// Memory faulted in ahead is resident whether the heap used it or
	// not: while the growth stays inside it, the growth is the prefault's
	// own, and keeping it would let each record creep past the last. The
	// record then comes down to what the runtime had in use, where that
	// is less: a rebuild that once took more (the first after errdocs
	// changed reads every record again) must not have every later one
	// fault in, and hold, memory its heap does not use. The heap never
	// grows much past its largest goal either.
	if ahead := uint64(b.ahead.faulted); ahead > 0 && took <= ahead+aheadSlack {
		took = uint64(b.ahead.prev)
		if inUse := b.rep.InUse; inUse > 0 {
			took = min(took, inUse+aheadSlack)
		}
	}
	took = min(took, b.timer.maxGoal)
	if int64(took) == b.ahead.prev {
		return
	}
	// A record that cannot be saved only costs the next rebuild time.
	if err := saveRebuildMemory(b.pcPath, int64(took)); err != nil {
		b.c.cacheProblem("rebuild memory: " + err.Error())
	}
}

// guessMemory keeps guessPerRecord for each record built as the next
// rebuild's memory, when no rebuild has kept a record of its own.
func (b *build) guessMemory() {
	if b.ahead.prev > 0 || b.rep.Built == 0 {
		return
	}
	if err := saveRebuildMemory(b.pcPath, int64(b.rep.Built)*guessPerRecord); err != nil {
		b.c.cacheProblem("rebuild memory: " + err.Error())
	}
}

// heapGoal is the heap size at which the collector next runs, and
// runtimeInUse the memory the Go runtime has in use (variables for tests).
var heapGoal, runtimeInUse = runtimeHeapGoal, runtimeMemoryInUse

// runtimeMemoryInUse is the memory the runtime has mapped less what its
// heap holds free or has given back: the heap's spans in use, stacks and
// the runtime's own tables. The stretch of heap reserved at start
// (internal/hugepages) is free heap until the heap grows into it.
func runtimeMemoryInUse() uint64 {
	v, ok := readMetrics("/memory/classes/total:bytes", "/memory/classes/heap/free:bytes", "/memory/classes/heap/released:bytes")
	if !ok || v[1]+v[2] > v[0] {
		return 0
	}
	return v[0] - v[1] - v[2]
}

func runtimeHeapGoal() uint64 {
	v, ok := readMetrics("/gc/heap/goal:bytes")
	if !ok {
		return 0
	}
	return v[0]
}

// readMetrics reads the runtime's metrics of these names, each a count;
// ok is false when the runtime does not give one of them so.
func readMetrics(names ...string) (v []uint64, ok bool) {
	samples := make([]metrics.Sample, len(names))
	for i, name := range names {
		samples[i].Name = name
	}
	metrics.Read(samples)
	v = make([]uint64, len(samples))
	for i, s := range samples {
		if s.Value.Kind() != metrics.KindUint64 {
			return nil, false
		}
		v[i] = s.Value.Uint64()
	}
	return v, true
}
