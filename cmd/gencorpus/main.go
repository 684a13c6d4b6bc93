// Command gencorpus writes a synthetic dataset of error records in the
// upstream export layout, for tests and benchmarks, or recomputes the
// manifest of an existing export folder.
//
//	go run ./cmd/gencorpus -records 10000 -seed 1 /tmp/corpus
//	go run ./cmd/gencorpus -manifest content
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/errdocs/errdocs/internal/corpus"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gencorpus", flag.ContinueOnError)
	fs.SetOutput(stderr)
	records := fs.Int("records", 1000, "number of records to generate")
	seed := fs.Int64("seed", 1, "random seed; the same seed and count give the same bytes")
	gz := fs.Bool("gzip", false, "gzip the record files and repos.json (*.json.gz)")
	realCode := fs.Bool("real-code", false, "source excerpts of real code from public repositories, not generated ones")
	manifest := fs.Bool("manifest", false, "do not generate: recompute DIR/manifest.json of an existing export folder")
	quiet := fs.Bool("q", false, "print nothing on success")
	fs.Usage = func() {
		fmt.Fprint(stderr, `usage: gencorpus [-records N] [-seed S] [-gzip] [-real-code] [-q] DIR
       gencorpus -manifest DIR

Writes a realistic synthetic dataset of error records to DIR in the export
layout: repos/<owner>/<name>.json, repos.json, tags.json, info/ and
manifest.json (sizes and sha256 sums). About 150 records per repo on average,
with a heavy tail. With -manifest, recomputes DIR/manifest.json instead.

flags:
`)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "gencorpus: want exactly one DIR argument")
		fs.Usage()
		return 2
	}
	dir := fs.Arg(0)
	if *manifest {
		if err := corpus.WriteManifest(dir, ""); err != nil {
			fmt.Fprintln(stderr, "gencorpus:", err)
			return 1
		}
		if !*quiet {
			fmt.Fprintf(stdout, "wrote %s/manifest.json\n", dir)
		}
		return 0
	}
	if *records < 0 {
		fmt.Fprintln(stderr, "gencorpus: -records must be >= 0")
		return 2
	}
	start := time.Now()
	d := corpus.Generate(*records, *seed)
	if *realCode {
		if err := d.UseRealCode(); err != nil {
			fmt.Fprintln(stderr, "gencorpus:", err)
			return 1
		}
	}
	if err := d.WriteExport(dir, *gz); err != nil {
		fmt.Fprintln(stderr, "gencorpus:", err)
		return 1
	}
	if !*quiet {
		fmt.Fprintf(stdout, "wrote %d records in %d repos to %s in %s\n", d.Len(), d.NumRepos(), dir, time.Since(start).Round(time.Millisecond))
	}
	return 0
}
