package corpus

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
)

// readJSONL decodes each line of gzipped JSON Lines (the embedded real
// code and real messages) into a T and hands it to take with its line's
// index.
func readJSONL[T any](gz []byte, take func(n int, v T)) error {
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return err
	}
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 0, 1<<16), 1<<22)
	for n := 0; sc.Scan(); n++ {
		var v T
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			return fmt.Errorf("line %d: %w", n+1, err)
		}
		take(n, v)
	}
	return sc.Err()
}
