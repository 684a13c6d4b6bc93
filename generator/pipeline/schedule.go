package pipeline

import "github.com/errdocs/errdocs/generator/index"

// ExportSchedule is when a build makes the search export, chosen once per
// build by chooseExport.
type ExportSchedule int

const (
	// ExportNone: not chosen (the build ended before it was).
	ExportNone ExportSchedule = iota
	// ExportKept: the previous export is kept whole; no record changed.
	ExportKept
	// ExportEarly: a few records changed. The index takes them and the
	// export is made incrementally on a goroutine of its own, from the
	// end of the reading, beside the model, the pages and the listings.
	ExportEarly
	// ExportBeside: incremental, beside the listings (the index changed
	// not at all, or could not be updated early).
	ExportBeside
	// ExportAlone: after the listings, alone: a whole export, or many
	// records, or more records than maxOverlap (early) or maxBeside
	// (beside the listings), after the site model's last use, when its
	// memory is free.
	ExportAlone
)

func (s ExportSchedule) String() string {
	switch s {
	case ExportKept:
		return "kept"
	case ExportEarly:
		return "early"
	case ExportBeside:
		return "beside the listings"
	case ExportAlone:
		return "alone"
	}
	return "none"
}

// exportFacts are what the schedule is chosen from.
type exportFacts struct {
	kept         bool // the dataset key is the previous export's
	records      int  // in the dataset
	known        bool // the index holds what the page cache says: changed and restructured are known
	changed      int  // records the index must take again (new or edited)
	restructured bool // a record is added or removed: the doc numbers move
}

// chooseExport is the one rule for when the export runs.
func chooseExport(f exportFacts) ExportSchedule {
	switch {
	case f.kept:
		return ExportKept
	case !f.known || f.restructured || f.changed > maxEarly:
		return ExportAlone
	case f.changed > 0 && f.records <= maxOverlap:
		return ExportEarly
	case f.changed > 0 || f.records > maxBeside:
		return ExportAlone
	default:
		return ExportBeside
	}
}

// chooseLate is the schedule of a build whose early export could not
// start: beside the listings where it would have been early, as far as
// the export beside the listings goes (maxBeside).
func chooseLate(f exportFacts) ExportSchedule {
	s := chooseExport(f)
	switch {
	case s != ExportEarly:
		return s
	case f.records > maxBeside:
		return ExportAlone
	default:
		return ExportBeside
	}
}

// restructured reports whether updating idx with the changed records adds
// or removes a record: one it lacks, or records of its own the dataset
// lacks (it holds present records of the dataset).
func restructured(ds *dataset, changed map[int32]bool, present int, idx *index.Index) bool {
	if idx.Len() != present {
		return true
	}
	for i := range changed {
		if !idx.Has(ds.ids[i]) {
			return true
		}
	}
	return false
}
