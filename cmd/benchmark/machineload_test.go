package main

import (
	"bytes"
	"math"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// A /proc/stat of a 2-CPU virtual machine (Linux 6.1), cut.
const procStat = `cpu  2914807 1203 830411 17009745 210833 0 60122 49501 0 0
cpu0 1460151 612 414911 8501340 105733 0 40011 24950 0 0
cpu1 1454656 591 415500 8508405 105100 0 20111 24551 0 0
intr 412883129 0 9 0 0 0 0 0 0 0 0
ctxt 802365410
btime 1764720000
`

func TestParseProcStat(t *testing.T) {
	c := parseProcStat([]byte(procStat))
	if !c.ok {
		t.Fatal("the cpu line was not read")
	}
	// user+nice+system+irq+softirq, in hundredths of a second.
	wantBusy := float64(2914807+1203+830411+0+60122) / 100
	if math.Abs(c.busy-wantBusy) > 1e-6 || math.Abs(c.steal-495.01) > 1e-6 {
		t.Errorf("busy %.2f s, steal %.2f s; want %.2f and 495.01", c.busy, c.steal, wantBusy)
	}
	if c := parseProcStat([]byte("cpu0 1 2 3\n")); c.ok {
		t.Error("a /proc/stat without the machine's cpu line was read")
	}
}

func TestParseIOPressure(t *testing.T) {
	in := "some avg10=61.81 avg60=52.44 avg300=46.65 total=1622662476\nfull avg10=25.28 avg60=21.46 avg300=28.27 total=1313860307\n"
	n, ok := parseIOPressure([]byte(in))
	if !ok || n != 1622662476 {
		t.Errorf("got %d, %v; want the some line's total, 1622662476", n, ok)
	}
	if _, ok := parseIOPressure([]byte("full avg10=0 total=5\n")); ok {
		t.Error("read a total from a file without a some line")
	}
}

// TestTimedSeesOtherProcesses times a child that sleeps while this
// process keeps a core busy: the run reports the other work, and the
// report says the machine was disturbed.
func TestTimedSeesOtherProcesses(t *testing.T) {
	if _, err := os.Stat("/proc/stat"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("no /proc/stat under CI")
		}
		t.Skip("no /proc/stat here")
	}
	var stop atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		x := 1.0
		for !stop.Load() {
			for i := 0; i < 1000; i++ {
				x = x*1.0000001 + 1e-9
			}
		}
		_ = x
	}()
	r, _, err := timed(t.TempDir(), "sleep", "1")
	stop.Store(true)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	// Nearly a core for a second; a loaded test machine may give it less.
	if r.Disturbance.OthersCPUSeconds < 0.4 {
		t.Errorf("others used %.2f s of CPU while a goroutine spun for a second beside the child", r.Disturbance.OthersCPUSeconds)
	}
	if r.CPUSeconds > 0.2 {
		t.Errorf("a sleeping child took %.2f s of CPU", r.CPUSeconds)
	}
	var out bytes.Buffer
	machineLoad(&out, Summary{Runs: []Run{r}}, runtime.NumCPU())
	if !strings.Contains(out.String(), "other processes and kernel threads used") {
		t.Errorf("the report does not say the machine was busy: %q", out.String())
	}
}

func TestDisturbedQuietRunsSayNothing(t *testing.T) {
	runs := []Run{{Seconds: 10, Disturbance: Disturbance{OthersCPUSeconds: 0.5, StealSeconds: 0.2, IOStallShare: 0.02}}}
	if d := disturbed(runs, 2); d != "" {
		t.Errorf("a quiet run reported as %q", d)
	}
	// Two ticks of steal in a tenth of a second: too short to judge.
	short := []Run{{Seconds: 0.1, Disturbance: Disturbance{StealSeconds: 0.02}}}
	if d := disturbed(short, 2); d != "" {
		t.Errorf("a 0.1 s run reported as %q", d)
	}
	runs = append(runs, Run{Seconds: 10, Disturbance: Disturbance{StealSeconds: 3, IOStallShare: 0.4}})
	d := disturbed(runs, 2)
	for _, want := range []string{"hypervisor took 15% of the CPUs", "waited for I/O 40% of the time"} {
		if !strings.Contains(d, want) {
			t.Errorf("%q does not say %q", d, want)
		}
	}
}
