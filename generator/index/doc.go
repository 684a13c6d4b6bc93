// Package index keeps the bleve index of the error records in a cache folder
// and updates it incrementally: the mapping (the analyzers the browser
// mirrors), Apply and Sync, and a side store of each record's content hash
// and result-list data. Package export (generator/index/export) reads it
// back into the static files the browser client searches.
package index
