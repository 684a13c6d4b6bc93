package export

import (
	"crypto/sha256"
	"encoding/binary"
	"path/filepath"

	"github.com/errdocs/errdocs/internal/cachefile"
)

// The pattern words of every record (patternWords, per doc number) are
// what the pattern keys are made from. An export whose changed records
// kept their patterns keeps the keys and needs none of them; one whose
// changed records changed a pattern needs those of every other record.
// So they are not in the export state, which every incremental export
// decodes, but in a file of their own, named in the state by the SHA-256
// of its body: uvarint(docs), then per doc uvarint(words) and the words.
const (
	patWordsKind    = "pattern words"
	patWordsVersion = 1
	patWordsFile    = "export.patwords"
)

// savePatWords writes the pattern words and returns their key.
func savePatWords(dir string, words [][]string) ([32]byte, error) {
	body := binary.AppendUvarint(nil, uint64(len(words)))
	for _, ws := range words {
		body = binary.AppendUvarint(body, uint64(len(ws)))
		for _, w := range ws {
			body = cachefile.AppendString(body, w)
		}
	}
	key := sha256.Sum256(body)
	b := cachefile.Begin(make([]byte, 0, len(body)+64), patWordsKind, patWordsVersion)
	return key, cachefile.WriteFile(filepath.Join(dir, patWordsFile), cachefile.Seal(append(b, body...)))
}

// loadPatWords reads the pattern words of n docs saved under key, or nil
// when the file is missing, damaged or of other words.
func loadPatWords(dir string, key [32]byte, n int) [][]string {
	body, err := cachefile.ReadFile(filepath.Join(dir, patWordsFile), patWordsKind, patWordsVersion)
	if err != nil || sha256.Sum256(body) != key {
		return nil
	}
	r := cachefile.NewReader(body)
	if r.Count() != n {
		return nil
	}
	words := make([][]string, n)
	for i := range words {
		if k := r.Count(); k > 0 {
			words[i] = make([]string, k)
			for j := range words[i] {
				words[i][j] = r.String()
			}
		}
	}
	if r.Done() != nil {
		return nil
	}
	return words
}
