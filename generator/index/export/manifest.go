package export

import (
	"encoding/json"
	"strings"

	"github.com/errdocs/errdocs/generator/index"
)

// writeManifest is the phase manifest, last: small and fixed in shape,
// then the entry, the one file with a fixed name (and so the one a host
// must not cache for long): which manifest to load.
func (x *exportRun) writeManifest() error {
	opts := x.opts
	type mfField struct {
		Name     string  `json:"name"`
		Analyzer string  `json:"analyzer"`
		Query    string  `json:"query"`
		Boost    float64 `json:"boost"`
	}
	hasPatterns := opts.Pattern != nil
	man := struct {
		Version     int                 `json:"v"`
		DocCount    uint64              `json:"docCount"`
		Docs        int                 `json:"docs"`
		Fields      []mfField           `json:"fields"`
		Shards      []string            `json:"shards"`
		DocsPerFile int                 `json:"docsPerFile"`
		Filters     map[string]string   `json:"filters"`
		Options     map[string]int      `json:"options"`
		FilterNames []string            `json:"filterNames"`
		Extra       map[string][]string `json:"extra,omitempty"`
		ShardHashes string              `json:"dh"`
		DocHashes   string              `json:"rh"`
		PatHashes   string              `json:"mh,omitempty"`
		KeyFirst    []string            `json:"kf,omitempty"`
		Names       map[string]string   `json:"names"`
	}{
		Version: FormatVersion, DocCount: x.docCount, Docs: len(x.docs),
		Shards: x.shardFirst, DocsPerFile: opts.DocsPerFile, Filters: x.filterIndex,
		Options: map[string]int{"minPrefix": index.MinPrefixRunes, "fuzzyPrefix": index.FuzzyPrefix, "inlineMax": opts.InlineMax, "blockSize": opts.BlockSize,
			"idPrefix": x.idPrefix, "patterns": boolInt(hasPatterns), "patternsPerFile": opts.PatternsPerFile},
		FilterNames: index.FilterFields, ShardHashes: strings.Join(x.shardHash, ""), Names: x.names,
		DocHashes: strings.Join(x.rHash, ""), PatHashes: strings.Join(x.mHash, ""), KeyFirst: x.kFirst,
	}
	for _, f := range index.Fields {
		man.Fields = append(man.Fields, mfField{f.Name, f.Analyzer, f.QueryAnalyzer, f.Boost})
	}
	mb, err := json.Marshal(man)
	if err != nil {
		return err
	}
	mh, err := x.w.script("manifest", "manifest", string(mb))
	if err != nil {
		return err
	}
	return x.w.write("entry", EntryFile, "errdocsSearch.load(\"entry\","+jsString(mh)+");\n")
}
