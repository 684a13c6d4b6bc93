// Command errdocs builds a static documentation site from a dataset of
// error records.
//
// Exit status: 0 when the command did its job, 1 when it failed, 2 on bad
// usage. Errors go to standard error, one line each.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
	"time"

	"github.com/errdocs/errdocs/internal/hugepages"
	"github.com/errdocs/errdocs/internal/resident"
)

// version is set at release time with -ldflags "-X main.version=...".
var version = "0.1.0-dev"

const usage = `errdocs builds a static documentation site from a dataset of error records.

Usage:
  errdocs build [PATH...] [flags]   build the site (default: content/ into site/)
  errdocs check [PATH...] [flags]   validate records only
  errdocs bundle [PATH...] --out FILE
                                    build an offline bundle (.zip or .tar.gz)
  errdocs serve [PATH...] [flags]   build, serve on 127.0.0.1 and rebuild on change
  errdocs version                   print the version
  errdocs help [COMMAND]            show help

PATH is a record file (JSON, JSON Lines, gzipped or not), a folder of them, or
an export folder (repos/, repos.json, info/, manifest.json). Run
"errdocs COMMAND --help" for a command's flags.
`

// errUsage marks an error as bad usage (exit status 2).
type errUsage struct{ msg string }

func (e errUsage) Error() string { return e.msg }

func main() {
	tuneGC()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go stopWithin(ctx, time.Second)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// stopWithin ends the process once ctx is cancelled (SIGINT, SIGTERM) and
// the command has not returned within grace. Every stage watches ctx, but
// one may be inside a long step (a large file read, a search export
// shard); leaving then is safe at any point, as a kill is: nothing is
// published until the output's final rename or journal, a journal is
// rolled forward by the next build, and a staging folder left beside the
// output is removed by it. The kernel lets go of the locks.
func stopWithin(ctx context.Context, grace time.Duration) {
	<-ctx.Done()
	time.Sleep(grace)
	fmt.Fprintln(os.Stderr, "errdocs: stopped by a signal")
	os.Exit(1)
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	cmd, rest := args[0], args[1:]
	var err error
	switch cmd {
	case "build":
		err = cmdBuild(ctx, rest, stdout, stderr)
	case "check":
		err = cmdCheck(ctx, rest, stdout, stderr)
	case "bundle":
		err = cmdBundle(ctx, rest, stdout, stderr)
	case "serve":
		err = cmdServe(ctx, rest, stdout, stderr)
	case "version", "--version", "-version":
		fmt.Fprintf(stdout, "errdocs %s\n", version)
	case "help", "-h", "--help", "-help":
		if len(rest) > 0 && rest[0] != "help" {
			return run(ctx, []string{rest[0], "--help"}, stdout, stderr)
		}
		fmt.Fprint(stdout, usage)
	default:
		fmt.Fprintf(stderr, "errdocs: unknown command %q\n\n%s", cmd, usage)
		return 2
	}
	var u errUsage
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &u):
		fmt.Fprintf(stderr, "errdocs %s: %s\n", cmd, u.msg)
		return 2
	default:
		fmt.Fprintf(stderr, "errdocs %s: %v\n", cmd, err)
		return 1
	}
}

// parse parses flags that may stand before, between or after the paths, as
// people type them ("errdocs build content --out public").
func parse(fs *flag.FlagSet, args []string) ([]string, error) {
	var paths []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, errUsage{err.Error()}
		}
		args = fs.Args()
		if len(args) == 0 {
			return paths, nil
		}
		paths = append(paths, args[0])
		args = args[1:]
	}
}

// tuneGC trades memory for speed: collecting four times less often
// (collectLessOften) saves a good part of a build's CPU time. A soft
// memory limit keeps the trade inside the memory budget (residentBudget):
// the collector runs more often as the heap nears it.
// The limit is what the budget leaves beside the pages of mapped files the
// build holds resident (the search index's segments, the side store's
// log), which grow as the index does (internal/resident). GOGC and
// GOMEMLIMIT in the environment still win. Most of the heap up to the
// budget is then reserved (internal/hugepages): a rebuild faults it in
// ahead of the heap, on the core it leaves idle (on a virtual machine,
// faulting in a build's memory costs a rebuild as much as its own work:
// BENCHMARKS.md), and a build of much work has it backed by huge pages
// (muchWork).
func tuneGC() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(residentBudget)
		resident.Govern(residentBudget, residentBudget/2, 250*time.Millisecond)
		governed = true
	}
	collectLessOften(true)
	hugepages.Reserve(heapStretch(debug.SetMemoryLimit(-1)))
}

// governed says the resident budget is kept (no GOMEMLIMIT given): the
// build then announces the index files it is about to read.
var governed bool

// residentBudget is the resident memory a build may hold: 1.5 GB (GiB,
// as the benchmark reports it) at 500,000 records (issue 16), less a
// margin for what the runtime returns to the kernel only after a delay.
const residentBudget = 1500 << 20

// heapStretch is how much of the heap to reserve: two thirds of the
// soft memory limit, which holds a rebuild's heap and most of a
// cold build's, but no more than 4 GB of address space when the
// environment sets a limit far larger. Taking the whole limit made the
// runtime return memory to the kernel while the stretch was being taken,
// at the start of every command.
func heapStretch(limit int64) int {
	return int(min(limit/3*2, 4<<30))
}

// muchWork is pipeline.Config.Garbage: a build that reads and renders
// much (a cold build, or a rebuild of many pages) has the rest of its
// heap backed by huge pages, with which it spends less CPU time (fewer
// missed address translations), and collects less often. A rebuild of a
// few pages stays in small pages: on a virtual machine, fresh huge pages
// cost it more than they save (BENCHMARKS.md, session 27). A rebuild of
// more than a few records but few pages (one record removed: the site
// model is built anew, the index exported whole) collects as usual: at
// GOGC 400 its heap met the soft memory limit, and the collector ran
// back to back (BENCHMARKS.md, session 30).
func muchWork(much bool) {
	if much {
		hugepages.Huge()
	}
	collectLessOften(much)
}

// collectLessOften sets GOGC 400, four times Go's default, or back to
// the default. A cold build allocates a great deal of short-lived
// garbage; a rebuild of a few records keeps most of what it allocates
// (every record's summary, the caches' tables), and at the default its
// collector ran cycle after cycle over a live heap that only grew. A
// larger heap once cost such a rebuild more in fresh memory than the
// collections it spared; since the heap is faulted in ahead on the idle
// core (internal/hugepages), it no longer does (BENCHMARKS.md, session
// 30). A build starts at 400 (tuneGC).
func collectLessOften(less bool) {
	if os.Getenv("GOGC") != "" {
		return
	}
	if less {
		debug.SetGCPercent(400)
	} else {
		debug.SetGCPercent(100)
	}
}
