package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Disturbance is what else the machine did while one build was timed:
// the figures a reader needs to tell a slow build from a busy machine.
// On a shared virtual machine a build's wall time moves with other
// processes' CPU, with the hypervisor's steal, and with the file system's
// own work (a large deletion just before can make every file a build
// creates cost several times the system time). Zero where the system does
// not say (off Linux).
type Disturbance struct {
	// OthersCPUSeconds is the CPU time every other process (and the
	// kernel's own threads) took while the build ran: the machine's busy
	// time less the build's user+sys.
	OthersCPUSeconds float64 `json:"othersCPUSeconds"`
	// StealSeconds is the CPU time the hypervisor gave to other guests
	// while the build wanted it.
	StealSeconds float64 `json:"stealSeconds"`
	// IOStallShare is the share of the build's wall time in which at least
	// one task waited for I/O (Linux pressure stall information, "some").
	IOStallShare float64 `json:"ioStallShare"`
}

// cpuTimes is the machine's CPU time so far, from /proc/stat, in seconds.
type cpuTimes struct {
	busy, steal float64
	ok          bool
}

// clockTick is the kernel's USER_HZ: /proc/stat counts in these units,
// 100 a second on every Linux architecture Go supports.
const clockTick = 100

// parseProcStat reads the "cpu" line of /proc/stat: user nice system idle
// iowait irq softirq steal ... Busy is user+nice+system+irq+softirq (guest
// time is inside user already); idle and iowait are not busy.
func parseProcStat(b []byte) cpuTimes {
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 9 || f[0] != "cpu" {
			continue
		}
		var v [8]float64
		for i := range v {
			n, err := strconv.ParseUint(f[i+1], 10, 64)
			if err != nil {
				return cpuTimes{}
			}
			v[i] = float64(n) / clockTick
		}
		const user, nice, system, irq, softirq, steal = 0, 1, 2, 5, 6, 7
		return cpuTimes{busy: v[user] + v[nice] + v[system] + v[irq] + v[softirq], steal: v[steal], ok: true}
	}
	return cpuTimes{}
}

// parseIOPressure reads the "some" total (microseconds) of
// /proc/pressure/io.
func parseIOPressure(b []byte) (micros uint64, ok bool) {
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 || f[0] != "some" {
			continue
		}
		for _, kv := range f[1:] {
			if v, found := strings.CutPrefix(kv, "total="); found {
				n, err := strconv.ParseUint(v, 10, 64)
				return n, err == nil
			}
		}
	}
	return 0, false
}

// loadMark is the machine's counters at one moment.
type loadMark struct {
	cpu      cpuTimes
	ioMicros uint64
	ioOK     bool
}

func markLoad() loadMark {
	var m loadMark
	if b, err := os.ReadFile("/proc/stat"); err == nil {
		m.cpu = parseProcStat(b)
	}
	if b, err := os.ReadFile("/proc/pressure/io"); err == nil {
		m.ioMicros, m.ioOK = parseIOPressure(b)
	}
	return m
}

// disturbance is what the machine did between from and to besides the
// build, which took buildCPU seconds of CPU in wall seconds.
func disturbance(from, to loadMark, buildCPU, wall float64) Disturbance {
	var d Disturbance
	if from.cpu.ok && to.cpu.ok {
		d.OthersCPUSeconds = max(to.cpu.busy-from.cpu.busy-buildCPU, 0)
		d.StealSeconds = max(to.cpu.steal-from.cpu.steal, 0)
	}
	if from.ioOK && to.ioOK && wall > 0 && to.ioMicros >= from.ioMicros {
		d.IOStallShare = min(float64(to.ioMicros-from.ioMicros)/1e6/wall, 1)
	}
	return d
}

// minCountedRun is the shortest run whose CPU figures disturbed judges.
const minCountedRun = 1.0 // seconds

// disturbed says what disturbed a scenario's runs, the worst run's
// figure of each, or "" when nothing passed a threshold: other processes
// and kernel threads at a tenth of a core, steal at 5% of the machine's
// cores, I/O stalls a tenth of the time. CPU figures are judged only for
// runs of a second or more. A build's own writes make kernel threads
// work and I/O stall too: the figures are shown, not judged.
func disturbed(runs []Run, cores int) string {
	var others, steal, io float64 // per second of the run's wall time
	for _, r := range runs {
		if r.Seconds <= 0 {
			continue
		}
		io = max(io, r.Disturbance.IOStallShare)
		// /proc/stat counts CPU time in hundredths of a second: over a
		// run of a tenth of a second, one tick more or less is a tenth
		// of a core.
		if r.Seconds >= minCountedRun {
			others = max(others, r.Disturbance.OthersCPUSeconds/r.Seconds)
			steal = max(steal, r.Disturbance.StealSeconds/r.Seconds)
		}
	}
	var parts []string
	if others >= 0.1 {
		parts = append(parts, fmt.Sprintf("other processes and kernel threads used %.2f cores", others))
	}
	if cores > 0 && steal/float64(cores) >= 0.05 {
		parts = append(parts, fmt.Sprintf("the hypervisor took %.0f%% of the CPUs", 100*steal/float64(cores)))
	}
	if io >= 0.1 {
		parts = append(parts, fmt.Sprintf("some task waited for I/O %.0f%% of the time", 100*io))
	}
	if len(parts) == 0 {
		return ""
	}
	return "machine, worst run: " + strings.Join(parts, "; ")
}
