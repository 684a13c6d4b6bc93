package export

import (
	"encoding/json"
	"maps"
)

// writeIDIndex is the phase id index: record id → doc number, sharded by
// the first hex digits of the id (ids are 16 random-looking hex digits), so
// docs(ids) loads one small chunk per id prefix. The files depend on the
// numbering alone: an incremental export (same numbering) keeps the
// previous ones.
func (x *exportRun) writeIDIndex() error {
	opts, inc, next := x.opts, x.inc, x.next
	x.idPrefix = 1
	if len(x.docs) > 400000 {
		x.idPrefix = 2
	}
	if inc != nil && inc.prev.IDNames != nil && inc.hasAll(opts.Dir, inc.prev.IDNames) {
		for key, h := range inc.prev.IDNames {
			if err := x.w.keep(opts.Dir+"/"+key+"."+h+".js", opts.Keep); err != nil {
				return err
			}
		}
		next.IDNames = inc.prev.IDNames
	} else {
		idShards := map[string][][2]interface{}{}
		for i, d := range x.docs {
			p := d.id
			if len(p) > x.idPrefix {
				p = p[:x.idPrefix]
			}
			idShards[p] = append(idShards[p], [2]interface{}{d.id, i})
		}
		next.IDNames = map[string]string{}
		for _, p := range sortedKeys(idShards) {
			b, err := json.Marshal(idShards[p])
			if err != nil {
				return err
			}
			h, err := x.w.script("i", "i/"+p, string(b))
			if err != nil {
				return err
			}
			next.IDNames["i/"+p] = h
		}
	}
	maps.Copy(x.names, next.IDNames)
	return nil
}
