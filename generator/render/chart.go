package render

import (
	"strconv"
	"strings"

	"github.com/errdocs/errdocs/generator/model"
)

// chart is a horizontal bar chart drawn as inline SVG: no script, and its
// title carries every number as text for screen readers (the SVG has
// role="img", so its drawn labels are not read twice).
type chart struct {
	ID, Title string
	Desc      string // "Critical: 3, Error: 20, …"
	Width     int
	Height    int
	// LabelX is where labels end, BarX where bars start, BarH their height.
	LabelX, BarX, BarH int
	Bars               []bar
}

type bar struct {
	Label string
	N     int
	// Y is the bar's top, TextY the baseline of its label and count, W its
	// length, CountX where its count is written.
	Y, TextY, W, CountX int
	// Class colours the bar ("sev-error"); "" for the default colour.
	Class string
}

// Chart geometry in SVG user units; the SVG scales to its box.
const (
	chartWidth    = 480
	chartLabelW   = 170 // labels end here
	chartBarX     = 178
	chartBarMaxW  = 240
	chartRow      = 26
	chartBarH     = 18
	chartMaxLabel = 24 // runes of a label before it is cut
)

// newChart makes a chart of counts. classes, when given, name each bar's
// colour class as "sev-" + classes[k] (severities); otherwise bars share
// one colour.
func newChart(id, title string, counts []model.Count, classes []string) *chart {
	c := &chart{ID: id, Title: title, Width: chartWidth, Height: max(1, len(counts)) * chartRow,
		LabelX: chartLabelW, BarX: chartBarX, BarH: chartBarH}
	most := 0
	for _, n := range counts {
		most = max(most, n.N)
	}
	var desc []string
	for k, n := range counts {
		b := bar{Label: model.Cut(n.Name, chartMaxLabel), N: n.N, Y: k*chartRow + (chartRow-chartBarH)/2, TextY: k*chartRow + 18}
		if most > 0 {
			b.W = n.N * chartBarMaxW / most
		}
		if n.N > 0 {
			// A non-zero count always shows as a visible sliver.
			b.W = max(b.W, 2)
		}
		b.CountX = chartBarX + b.W + 6
		if k < len(classes) {
			b.Class = "sev-" + classes[k]
		}
		c.Bars = append(c.Bars, b)
		desc = append(desc, n.Name+": "+strconv.Itoa(n.N))
	}
	c.Desc = strings.Join(desc, ", ")
	return c
}
