package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeSysfs makes a sysfs with one virtio device of id and features, and
// page_reporting's parameters where given ("" leaves the file out).
func fakeSysfs(t *testing.T, id, features, order, reportedKiB string) {
	t.Helper()
	root := t.TempDir()
	dev := filepath.Join(root, "bus/virtio/devices/virtio0")
	params := filepath.Join(root, "module/page_reporting/parameters")
	for _, d := range []string{dev, params} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	files := map[string]string{
		filepath.Join(dev, "device"):                  id + "\n",
		filepath.Join(dev, "features"):                features + "\n",
		filepath.Join(params, "page_reporting_order"): order + "\n",
		filepath.Join(params, "reported_kib"):         reportedKiB + "\n",
	}
	for path, content := range files {
		if strings.TrimSpace(content) == "" {
			continue
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	old := sysfs
	sysfs = root
	t.Cleanup(func() { sysfs = old })
}

const (
	reportingFeatures = "0110010100000000000000000000000010000000"
	plainFeatures     = "0110000100000000000000000000000010000000"
)

func TestPageReportingFromTheBalloon(t *testing.T) {
	fakeSysfs(t, "0x0005", reportingFeatures, "9", "")
	p := pageReporting()
	if p == nil {
		t.Fatal("a balloon with VIRTIO_BALLOON_F_REPORTING: no page reporting found")
	}
	if want := int64(os.Getpagesize()) << 9; p.BlockBytes != want {
		t.Errorf("block = %d bytes, want %d (order 9)", p.BlockBytes, want)
	}
	if line := pageReportingLine(p); !strings.Contains(line, "free page reporting: on") {
		t.Errorf("line = %q", line)
	}
}

func TestNoPageReportingWithoutTheFeature(t *testing.T) {
	for _, c := range []struct{ name, id, features string }{
		{"balloon without the feature", "0x0005", plainFeatures},
		{"another device with bit 5", "0x0002", reportingFeatures},
	} {
		fakeSysfs(t, c.id, c.features, "9", "100")
		p := pageReporting()
		if p != nil {
			t.Errorf("%s: page reporting %+v", c.name, *p)
		}
		if line := pageReportingLine(p); line != "" {
			t.Errorf("%s: the report says %q", c.name, line)
		}
	}
}

func TestHandedBackCountsBetweenMarks(t *testing.T) {
	fakeSysfs(t, "0x0005", reportingFeatures, "9", "1024")
	var h handedBack
	if got := h.sinceLast(); got != -1 {
		t.Errorf("before any mark: %d, want -1 (not known)", got)
	}
	h.mark()
	kib := filepath.Join(sysfs, "module/page_reporting/parameters/reported_kib")
	if err := os.WriteFile(kib, []byte("3072\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := h.sinceLast(); got != 2<<20 {
		t.Errorf("handed back %d bytes, want %d", got, 2<<20)
	}
	os.Remove(kib)
	if got := h.sinceLast(); got != -1 {
		t.Errorf("no counter: %d, want -1", got)
	}
}

func TestReportSaysWhatWasHandedBack(t *testing.T) {
	mb := func(n int64) *int64 { n <<= 20; return &n }
	r := &Results{Records: 10, Runs: 3, Machine: Machine{NumCPU: 2, PageReporting: &PageReporting{BlockBytes: 2 << 20}}}
	r.OneChange.Runs = []Run{{HandedBackBytes: mb(640)}, {HandedBackBytes: mb(0)}, {HandedBackBytes: mb(700)}}
	var out bytes.Buffer
	report(&out, r)
	for _, want := range []string{
		"free page reporting: on (a virtio balloon hands the host free memory in blocks of 2 MB and more",
		"free memory handed back to the host in the gap before each run: median 640 MB (0 MB to 700 MB)",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
	if n := strings.Count(out.String(), "handed back to the host in the gap before each run"); n != 1 {
		t.Errorf("the line appears %d times, want once (no-change runs counted nothing)", n)
	}
}
