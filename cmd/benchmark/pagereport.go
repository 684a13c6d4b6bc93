package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// A virtual machine whose virtio balloon offers free page reporting hands
// its free memory back to the host: blocks of 2^order pages that are free
// are reported, the host drops their backing, and backs them again only
// when the guest writes to them. A build is a new process: the memory its
// heap takes is, for the most part, what the previous build freed, and in
// the gap between two builds most of it is handed back. Each rebuild then
// pays the host's faults for its heap, a cost that moves with what the
// host did with the memory, not with the build (BENCHMARKS.md, session
// 49). The benchmark says whether the machine reports free pages, and,
// where the kernel counts them, how much was handed back in the gap before
// each timed rebuild.

// sysfs is where the kernel's devices and module parameters are read
// (a variable for tests).
var sysfs = "/sys"

// virtioBalloon is the virtio device id of a memory balloon, and
// balloonReporting its feature bit VIRTIO_BALLOON_F_REPORTING.
const (
	virtioBalloon    = "0x0005"
	balloonReporting = 5
)

// PageReporting is the machine's free page reporting, when a balloon
// reports free pages.
type PageReporting struct {
	// BlockBytes is the smallest free block the kernel reports
	// (page_reporting_order); 0 when the kernel does not say.
	BlockBytes int64 `json:"blockBytes,omitempty"`
}

// pageReporting returns the machine's free page reporting, nil when no
// balloon reports free pages (or the system does not say).
func pageReporting() *PageReporting {
	if !balloonReports() {
		return nil
	}
	p := &PageReporting{}
	if order, ok := readUint(filepath.Join(sysfs, "module/page_reporting/parameters/page_reporting_order")); ok && order < 40 {
		p.BlockBytes = int64(os.Getpagesize()) << order
	}
	return p
}

// balloonReports reports whether a virtio balloon has negotiated free
// page reporting: its features file is one character per bit, '1' where
// the driver and the device agreed on it.
func balloonReports() bool {
	devices, _ := filepath.Glob(filepath.Join(sysfs, "bus/virtio/devices/*"))
	for _, d := range devices {
		id, err := os.ReadFile(filepath.Join(d, "device"))
		if err != nil || strings.TrimSpace(string(id)) != virtioBalloon {
			continue
		}
		features, err := os.ReadFile(filepath.Join(d, "features"))
		if err == nil && len(features) > balloonReporting && features[balloonReporting] == '1' {
			return true
		}
	}
	return false
}

// reportedBytes is how much free memory the kernel has reported to the
// host since it started, where it counts that (a parameter some kernels
// add to page_reporting; ok is false elsewhere).
func reportedBytes() (n int64, ok bool) {
	kib, ok := readUint(filepath.Join(sysfs, "module/page_reporting/parameters/reported_kib"))
	return int64(kib) << 10, ok
}

// readUint reads a file holding one unsigned number.
func readUint(path string) (uint64, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	n, err := strconv.ParseUint(strings.TrimSpace(string(b)), 10, 64)
	return n, err == nil
}

// handedBack follows the memory reported to the host between child
// processes: mark at the end of one, sinceLast at the start of the next
// gives what was reported meanwhile.
type handedBack struct {
	at int64
	ok bool
}

// mark notes the count now.
func (h *handedBack) mark() { h.at, h.ok = reportedBytes() }

// sinceLast is what was reported since the last mark (-1: not known).
func (h *handedBack) sinceLast() int64 {
	now, ok := reportedBytes()
	if !ok || !h.ok || now < h.at {
		return -1
	}
	return now - h.at
}

// handedNote is what a run's log line says of the memory handed back to
// the host in the gap before it ("" where not known).
func handedNote(r Run) string {
	if r.HandedBackBytes == nil {
		return ""
	}
	return fmt.Sprintf(", with %s of free memory handed back to the host", megabytes(*r.HandedBackBytes))
}

// pageReportingLine says whether the machine hands free memory back to
// its host ("" when it does not).
func pageReportingLine(p *PageReporting) string {
	if p == nil {
		return ""
	}
	block := ""
	if p.BlockBytes > 0 {
		block = " in blocks of " + size(p.BlockBytes) + " and more"
	}
	return "free page reporting: on (a virtio balloon hands the host free memory" + block + "; a build's heap that the previous build freed is backed again at its first write)"
}

// handedBackLine says how much free memory was handed back to the host
// before a scenario's runs, where the kernel counts it.
func handedBackLine(w io.Writer, s Summary) {
	var all []float64
	for _, r := range s.Runs {
		if r.HandedBackBytes != nil {
			all = append(all, float64(*r.HandedBackBytes))
		}
	}
	if len(all) == 0 {
		return
	}
	fmt.Fprintf(w, "  free memory handed back to the host in the gap before each run: median %s (%s to %s)\n", megabytes(int64(median(all))), megabytes(int64(slices.Min(all))), megabytes(int64(slices.Max(all))))
}

// megabytes is n in megabytes, 0 included.
func megabytes(n int64) string { return fmt.Sprintf("%.0f MB", float64(n)/(1<<20)) }
