package index

import (
	"github.com/blevesearch/bleve/v2/document"

	"github.com/errdocs/errdocs/generator/record"
)

// An Entry is what the index keeps of one record: its content hash, its
// bleve document and its side entry. Making them is most of what
// indexing a record costs beside bleve's own batch work, and it needs
// nothing of the index but its mapping: a caller with many records makes
// their entries on every core (Prepare), ahead of the one goroutine that
// applies them (ApplyEntries).
type Entry struct {
	rec    *record.Record
	made   bool // hash, fields, doc and side made (or err)
	hash   [16]byte
	fields map[string]interface{} // BuildDoc's, for noteTerms
	doc    *document.Document
	side   sideEntry
	err    error
}

// Prepare makes r's entry. It may be called from any goroutine, while
// the index applies other entries; r must not change until the entry is
// applied.
func (ix *Index) Prepare(r *record.Record) *Entry {
	e := &Entry{rec: r}
	if r != nil && r.ID != "" {
		e.hash = recordHash(r)
		ix.fillEntry(e)
	}
	return e
}

// fillEntry makes e's fields, document and side entry from its record.
func (ix *Index) fillEntry(e *Entry) {
	e.made = true
	docs, err := ix.docMaker()
	if err != nil {
		e.err = err
		return
	}
	fields, dd := BuildDoc(e.rec)
	e.fields = fields
	e.doc, e.err = docs.document(e.rec.ID, fields)
	e.side = sideEntry{Hash: e.hash, SortKey: dd.SortKey, Blob: encodeDocData(dd)}
}

// docMaker returns the document maker of the index's mapping, made once.
func (ix *Index) docMaker() (*docMaker, error) {
	ix.docsOnce.Do(func() { ix.docs, ix.docsErr = newDocMaker(ix.bleve.Mapping()) })
	return ix.docs, ix.docsErr
}
