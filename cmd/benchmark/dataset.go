package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/errdocs/errdocs/generator/record"
	"github.com/errdocs/errdocs/internal/corpus"
	"github.com/errdocs/errdocs/internal/hugobench"
)

// ensureDataset generates the export folder for records/seed under work,
// or reuses one a previous run completed (a marker file beside it says
// so). Leftovers of an interrupted edit are restored first. With realCode
// the records' source excerpts are real code (corpus.Dataset.UseRealCode).
func ensureDataset(work string, records int, seed int64, realCode bool, logf func(string, ...any)) (string, bool, error) {
	name := fmt.Sprintf("dataset-%d-s%d", records, seed)
	if realCode {
		name += "-realcode"
	}
	dir := filepath.Join(work, name)
	marker := dir + ".complete"
	if _, err := os.Stat(marker); err == nil {
		if err := restoreBackups(dir); err != nil {
			return "", false, err
		}
		return dir, true, nil
	}
	if err := os.RemoveAll(dir); err != nil {
		return "", false, err
	}
	logf("generating %d records (seed %d) into %s", records, seed, dir)
	d := corpus.Generate(records, seed)
	if realCode {
		if err := d.UseRealCode(); err != nil {
			return "", false, err
		}
	}
	if err := d.WriteExport(dir, false); err != nil {
		return "", false, err
	}
	return dir, false, os.WriteFile(marker, []byte(fmt.Sprintf("records %d seed %d\n", records, seed)), 0o644)
}

// target is a record the one-change and one-removed runs touch.
type target struct {
	File  string // repo file
	Rel   string // its path relative to the dataset, slash-separated
	Index int    // element index in the file's array
	ID    string
	Path  string // page folder relative to the site root ("owner/name/slug/")
}

// pickTargets chooses, deterministically, the record to edit and the
// record to remove: the middle record of the median-sized repo file, and of
// the next-larger file (another repo). The removed record is one no info
// article names, so removing it needs no other file of the export changed.
func pickTargets(dataset string) (edit target, remove []target, err error) {
	files, err := hugobench.RepoFiles(dataset)
	if err != nil {
		return edit, remove, err
	}
	if len(files) == 0 {
		return edit, remove, fmt.Errorf("no repo files in %s", dataset)
	}
	sizes := map[string]int64{}
	for _, f := range files {
		fi, err := os.Stat(f)
		if err != nil {
			return edit, remove, err
		}
		sizes[f] = fi.Size()
	}
	sort.SliceStable(files, func(i, j int) bool { return sizes[files[i]] < sizes[files[j]] })
	infoText := readInfo(dataset)
	mid := len(files) / 2
	eds, err := pickIn(dataset, files[mid], "")
	if err != nil {
		return edit, remove, err
	}
	edit = eds[0]
	for k := 1; k <= len(files); k++ {
		f := files[(mid+k)%len(files)]
		if ts, err := pickIn(dataset, f, infoText); err == nil && ts[0].File != edit.File {
			return edit, ts, nil
		}
	}
	return edit, remove, fmt.Errorf("no record to remove in %s", dataset)
}

func readInfo(dataset string) string {
	var b strings.Builder
	ents, _ := os.ReadDir(filepath.Join(dataset, "info"))
	for _, e := range ents {
		data, _ := os.ReadFile(filepath.Join(dataset, "info", e.Name()))
		b.Write(data)
	}
	return b.String()
}

// pickIn lists up to 50 records of file, from the middle on, whose ids are
// not in avoid; a file of one record is not used when avoid is set
// (removing its only record would remove the repo).
func pickIn(dataset, file, avoid string) ([]target, error) {
	elems, err := readArray(file)
	if err != nil {
		return nil, err
	}
	if len(elems) == 0 || avoid != "" && len(elems) < 2 {
		return nil, fmt.Errorf("%s: too few records", file)
	}
	var ts []target
	rel, _ := filepath.Rel(dataset, file)
	for k := range elems {
		i := (len(elems)/2 + k) % len(elems)
		var r record.Record
		if err := json.Unmarshal(elems[i], &r); err != nil {
			continue
		}
		if r.ID == "" || avoid != "" && strings.Contains(avoid, r.ID) {
			continue
		}
		ts = append(ts, target{File: file, Rel: filepath.ToSlash(rel), Index: i, ID: r.ID, Path: r.Path()})
		if len(ts) == 50 {
			break
		}
	}
	if len(ts) == 0 {
		return nil, fmt.Errorf("%s: no usable record", file)
	}
	return ts, nil
}

func readArray(file string) ([]json.RawMessage, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var elems []json.RawMessage
	if err := json.Unmarshal(data, &elems); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return elems, nil
}

// writeArray writes records in the generator's layout, one per line, so
// the records not touched keep their bytes.
func writeArray(file string, elems []json.RawMessage) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("[\n")
	for i, e := range elems {
		if i > 0 {
			b.WriteString(",\n")
		}
		b.Write(e)
	}
	b.WriteString("\n]\n")
	return b.Bytes(), os.WriteFile(file, b.Bytes(), 0o644)
}

// An edit changes the dataset and can put it back.
type edit struct {
	dataset string
	saved   map[string][]byte // file → original bytes
}

const backupDir = ".benchmark-backup"

// save keeps a file's original bytes in memory and in a backup beside the
// dataset (restored by the next run if this one dies mid-edit).
func (e *edit) save(file string) error {
	if e.saved == nil {
		e.saved = map[string][]byte{}
	}
	if _, ok := e.saved[file]; ok {
		return nil
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	e.saved[file] = data
	rel, err := filepath.Rel(e.dataset, file)
	if err != nil {
		return err
	}
	bak := filepath.Join(e.dataset+backupDir, rel)
	if err := os.MkdirAll(filepath.Dir(bak), 0o755); err != nil {
		return err
	}
	return os.WriteFile(bak, data, 0o644)
}

// restore puts every saved file back.
func (e *edit) restore() error {
	for f, data := range e.saved {
		if err := os.WriteFile(f, data, 0o644); err != nil {
			return err
		}
	}
	e.saved = nil
	return os.RemoveAll(e.dataset + backupDir)
}

func restoreBackups(dataset string) error {
	root := dataset + backupDir
	if _, err := os.Stat(root); err != nil {
		return nil
	}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dataset, rel), data, 0o644)
	})
	if err != nil {
		return err
	}
	return os.RemoveAll(root)
}

// changeDoc appends a sentence to the target record's documentation (still
// a valid record) and updates the manifest.
func changeDoc(dataset string, t target, note string) (*edit, error) {
	e := &edit{dataset: dataset}
	if err := e.save(t.File); err != nil {
		return nil, err
	}
	elems, err := readArray(t.File)
	if err != nil {
		return e, err
	}
	var r record.Record
	if err := json.Unmarshal(elems[t.Index], &r); err != nil {
		return e, err
	}
	r.Documentation = strings.TrimRight(r.Documentation, "\n") + "\n\n" + note
	b, err := r.MarshalJSON()
	if err != nil {
		return e, err
	}
	elems[t.Index] = b
	data, err := writeArray(t.File, elems)
	if err != nil {
		return e, err
	}
	return e, e.updateManifest(t.Rel, data, 0)
}

// removeRecord drops the target record from its repo file and updates the
// manifest.
func removeRecord(dataset string, t target) (*edit, error) {
	e := &edit{dataset: dataset}
	if err := e.save(t.File); err != nil {
		return nil, err
	}
	elems, err := readArray(t.File)
	if err != nil {
		return e, err
	}
	elems = append(elems[:t.Index:t.Index], elems[t.Index+1:]...)
	data, err := writeArray(t.File, elems)
	if err != nil {
		return e, err
	}
	return e, e.updateManifest(t.Rel, data, -1)
}

// updateManifest sets the size and sha256 of rel in manifest.json, and
// adds delta to its record count, as a fresh export would; the build checks
// files against the manifest. Without a manifest there is nothing to do.
func (e *edit) updateManifest(rel string, data []byte, delta int) error {
	mp := filepath.Join(e.dataset, "manifest.json")
	old, err := os.ReadFile(mp)
	if os.IsNotExist(err) {
		return nil
	} else if err != nil {
		return err
	}
	var m corpus.Manifest
	if err := json.Unmarshal(old, &m); err != nil {
		return fmt.Errorf("%s: %w", mp, err)
	}
	if err := e.save(mp); err != nil {
		return err
	}
	sum := sha256.Sum256(data)
	for i := range m.Files {
		if m.Files[i].Path == rel {
			m.Files[i].Bytes = int64(len(data))
			m.Files[i].SHA256 = hex.EncodeToString(sum[:])
		}
	}
	m.Counts.Records += delta
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(mp, append(b, '\n'), 0o644)
}
