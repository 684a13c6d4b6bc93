package render

import (
	"fmt"
	"html/template"
	"net/url"
	"slices"
	"strings"

	"github.com/errdocs/errdocs/generator/model"
	"github.com/errdocs/errdocs/generator/record"
)

// recordData is the record page's .Data. Record text is held either as a
// plain string (escaped by the template) or as template.HTML made by the
// Markdown or highlight renderer.
type recordData struct {
	R        *record.Record
	Language string
	RepoPath string
	Upstream upstream      // links to the source upstream (Line "" without a web URL)
	Excerpt  template.HTML // "" when the record has no source
	// Sections are the page's sections, in order, for "On this page".
	Sections []link
	// Report is the "Report a problem with this page" URL, "" for none.
	Report string
	// Prose fields (Markdown).
	Documentation, Triggers, Situations template.HTML
	Solutions                           []template.HTML
	ExampleFix                          template.HTML
	// Defensive patterns.
	Strategy string
	Patterns []codeBlock
	Tips     []template.HTML
	Tags     []link
	Family   link // Name "" when none
	Related  []entry
}

// codeBlock is a titled piece of highlighted code.
type codeBlock struct {
	Title string
	Code  template.HTML
}

// link is a named site path; Path is "" when the target has no page.
type link struct {
	Name, Path string
}

// entry is one record in a listing.
type entry struct {
	Href, Message, Severity string
	// Repo is shown when a listing spans repos, else "".
	Repo string
	// Detail is the error class (or else the type) and the language.
	Detail string
}

// entry makes record i's entry in a listing on page p.
func entryOf(p *Page, s *model.Model, i int32, showRepo bool) entry {
	sum := &s.Summaries[i]
	e := entry{Href: p.Link(sum.Path()), Message: sum.Message, Severity: sum.Severity}
	if showRepo {
		e.Repo = sum.Repo
	}
	d := sum.ErrorClass
	if d == "" {
		d = sum.ErrorType
	}
	if sum.Language != "" {
		d += " · " + sum.Language
	}
	e.Detail = d
	return e
}

// maxTitleMessage bounds the message in the document title.
const maxTitleMessage = 70

// maxDescription bounds the meta description.
const maxDescription = 160

// Record renders record i of s, whose full record is rec, at its path
// (rec.Path() + "index.html").
func (r *Renderer) Record(s *model.Model, i int32, rec *record.Record) ([]byte, error) {
	var out []byte
	err := r.RecordFunc(s, i, rec, func(b []byte) error {
		out = slices.Clone(b)
		return nil
	})
	return out, err
}

// RecordFunc is Record calling emit with the page, whose bytes are valid
// only during the call (they are the renderer's pooled buffer): it spares
// a copy of each page when the caller only writes it out.
func (r *Renderer) RecordFunc(s *model.Model, i int32, rec *record.Record, emit func([]byte) error) error {
	p, err := r.recordPage(s, i, rec)
	if err != nil {
		return err
	}
	return r.executeFunc(recordPage, p, emit)
}

// recordPage makes record i's page data.
func (r *Renderer) recordPage(s *model.Model, i int32, rec *record.Record) (*Page, error) {
	if s == nil || rec == nil || int(i) < 0 || int(i) >= len(s.Summaries) {
		return nil, fmt.Errorf("render: no record %d", i)
	}
	p := r.page(rec.Path(), model.Cut(oneLine(rec.ErrorMessage), maxTitleMessage)+" — "+rec.Repo)
	doc := r.recordHead(p, s, i, rec)
	d := &recordData{
		R:        rec,
		Language: record.Language(rec.FilePath),
		RepoPath: rec.Repo + "/",
		Strategy: rec.HandlingStrategy,
	}
	if u := webURL(rec.GithubURL); u != "" {
		d.Upstream = upstreamOf(u, rec.LineNumber, rec.AnalyzedSha)
	}
	if t := r.o.ReportURL; t != "" {
		pageURL := model.Absolute(r.o.BaseURL, rec.Path())
		if pageURL == "" {
			pageURL = rec.Path()
		}
		d.Report = fillReportURL(t, rec.ID, rec.Repo, pageURL, strings.TrimSuffix(p.Head.Title, " · "+r.o.Title))
	}
	if err := r.recordText(d, rec, doc); err != nil {
		return nil, err
	}
	d.Tags, d.Family = taxonomyLinks(s, rec)
	for _, j := range s.Related(i) {
		d.Related = append(d.Related, entryOf(p, s, j, s.Summaries[j].Repo != rec.Repo))
	}
	d.Sections = d.sections()
	p.Data = d
	return p, nil
}

// firstRender is the documentation as rendered together with its first
// sentence, when the Markdown renderer can do both from one parse.
type firstRender struct {
	tried bool // rendered here: html or err is the documentation's outcome
	html  template.HTML
	err   error
}

// recordHead fills the record page's head: its description, canonical
// link or robots rule, breadcrumbs and JSON-LD. The documentation is
// rendered here with its first sentence when the Markdown renderer can;
// its error (if any) is reported in field order by recordText.
func (r *Renderer) recordHead(p *Page, s *model.Model, i int32, rec *record.Record) firstRender {
	p.Head.Type = "article"
	var doc firstRender
	if m, ok := r.o.Markdown.(sentenceRenderer); ok && strings.TrimSpace(rec.Documentation) != "" {
		doc.tried = true
		doc.html, p.Head.Description, doc.err = m.RenderFirstSentence(rec.Documentation, maxDescription)
	}
	if !doc.tried || doc.err != nil {
		p.Head.Description = firstSentence(rec.Documentation, maxDescription)
	}
	if p.Head.Description == "" {
		// Documentation that is all code or headings has no sentence; the
		// message still says what the page is about.
		p.Head.Description = cutWords(oneLine(rec.ErrorMessage), maxDescription)
	}
	if c := s.Canonical(i); c != i {
		p.Head.Canonical = model.Absolute(r.o.BaseURL, s.Summaries[c].Path())
	} else if s.Summaries[i].Thin() {
		p.Head.Robots = "noindex, follow"
	}
	p.Crumbs = []Crumb{{"Home", ""}, {rec.Repo, rec.Repo + "/"}, {rec.Slug, rec.Path()}}
	p.Head.JSONLD = append(p.Head.JSONLD, r.articleLD(rec, p.Head.Description))
	if bc := r.breadcrumbLD(p.Crumbs); bc != nil {
		p.Head.JSONLD = append(p.Head.JSONLD, bc)
	}
	return doc
}

// recordText renders the record's code and prose into d, in field order;
// an error names the record and the field whose rendering failed.
func (r *Renderer) recordText(d *recordData, rec *record.Record, doc firstRender) error {
	fail := func(field string, err error) error {
		return fmt.Errorf("render %s (id %s): %s: %w", rec.Path(), rec.ID, field, err)
	}
	var err error
	if rec.SourceCode != "" {
		start := max(rec.SourceCodeStart, 1)
		if d.Excerpt, err = r.excerpt(rec.SourceCode, rec.FilePath, start, rec.LineNumber); err != nil {
			return fail("sourceCode", err)
		}
		d.Excerpt = anchorLines(d.Excerpt, rec.LineNumber)
	}
	if doc.tried {
		if doc.err != nil {
			return fail("documentation", doc.err)
		}
		d.Documentation = doc.html
	} else if d.Documentation, err = r.markdown(rec.Documentation); err != nil {
		return fail("documentation", err)
	}
	for _, f := range []struct {
		name string
		src  string
		dst  *template.HTML
	}{
		{"triggerScenarios", rec.TriggerScenarios, &d.Triggers},
		{"commonSituations", rec.CommonSituations, &d.Situations},
	} {
		if *f.dst, err = r.markdown(f.src); err != nil {
			return fail(f.name, err)
		}
	}
	if d.Solutions, err = r.inlines(rec.Solutions); err != nil {
		return fail("solutions", err)
	}
	if d.Tips, err = r.inlines(rec.PreventionTips); err != nil {
		return fail("preventionTips", err)
	}
	if d.ExampleFix, err = r.code(rec.ExampleFix, rec.FilePath); err != nil {
		return fail("exampleFix", err)
	}
	d.Patterns, err = r.patterns(rec, fail)
	return err
}

// patterns highlights the record's defensive patterns that it has.
func (r *Renderer) patterns(rec *record.Record, fail func(string, error) error) ([]codeBlock, error) {
	var out []codeBlock
	for _, c := range []struct{ title, field, code string }{
		{"Validation", "validationCode", rec.ValidationCode},
		{"Type guard", "typeGuard", rec.TypeGuard},
		{"Try/catch", "tryCatchPattern", rec.TryCatchPattern},
	} {
		if c.code == "" {
			continue
		}
		h, err := r.code(c.code, rec.FilePath)
		if err != nil {
			return nil, fail(c.field, err)
		}
		out = append(out, codeBlock{c.title, h})
	}
	return out, nil
}

// taxonomyLinks are the record's tags (each once, in its order) and its
// family, linked where the site has their pages.
func taxonomyLinks(s *model.Model, rec *record.Record) ([]link, link) {
	var tags []link
	seen := map[string]bool{}
	for _, t := range rec.Tags {
		if t == "" || seen[t] {
			continue
		}
		seen[t] = true
		l := link{Name: t}
		if s.Tag(t) != nil {
			l.Path = model.TagPath(t)
		}
		tags = append(tags, l)
	}
	var family link
	if f := rec.BackgroundTag; f != "" {
		family = link{Name: f}
		if s.Family(f) != nil {
			family.Path = model.FamilyPath(f)
		}
	}
	return tags, family
}

// sectionTitles are the record page's section headings by id; the ids are
// the fragments people link to (#solutions).
var sectionTitles = map[string]string{
	"source":      "Where it is raised",
	"meaning":     "What it means",
	"triggers":    "What triggers it",
	"situations":  "Common situations",
	"solutions":   "Solutions",
	"example-fix": "Example fix",
	"handling":    "Handling it",
	"prevention":  "Prevention checklist",
	"see-also":    "See also",
}

// section is the template function naming a section: its id and title.
func section(id string) (link, error) {
	t, ok := sectionTitles[id]
	if !ok {
		return link{}, fmt.Errorf("no section %q", id)
	}
	return link{Name: t, Path: id}, nil
}

// sections lists the sections record.html shows for d, in its order (the
// same conditions as the template's).
func (d *recordData) sections() []link {
	has := []struct {
		id string
		ok bool
	}{
		{"source", true},
		{"meaning", d.Documentation != ""},
		{"triggers", d.Triggers != ""},
		{"situations", d.Situations != ""},
		{"solutions", len(d.Solutions) > 0},
		{"example-fix", d.ExampleFix != ""},
		{"handling", d.Strategy != "" || len(d.Patterns) > 0},
		{"prevention", len(d.Tips) > 0},
		{"see-also", len(d.Tags) > 0 || len(d.Related) > 0},
	}
	var out []link
	for _, h := range has {
		if h.ok {
			out = append(out, link{Name: sectionTitles[h.id], Path: h.id})
		}
	}
	return out
}

// sentenceRenderer is a Markdown renderer that also gives the first
// sentence of what it renders (markdown.Renderer), from the same parse.
type sentenceRenderer interface {
	RenderFirstSentence(src string, max int) (template.HTML, string, error)
}

// maxHeadline bounds the article headline, the length search engines show.
const maxHeadline = 110

// articleLD describes a record page as a TechArticle: what the error is,
// when it was analysed, which library it belongs to.
func (r *Renderer) articleLD(rec *record.Record, description string) *techArticle {
	a := &techArticle{
		Context: ldContext, Type: "TechArticle",
		Headline:      model.Cut(oneLine(rec.ErrorMessage), maxHeadline),
		Description:   description,
		DatePublished: rec.AnalyzedAt,
		DateModified:  rec.AnalyzedAt,
		URL:           model.Absolute(r.o.BaseURL, rec.Path()),
		InLanguage:    "en",
		About: []ldThing{{Type: "SoftwareSourceCode", Name: rec.Repo,
			CodeRepository: "https://github.com/" + rec.Repo, ProgrammingLanguage: record.Language(rec.FilePath)}},
		IsPartOf: &ldWebSite{Type: "WebSite", Name: r.o.Title, URL: r.o.BaseURL},
	}
	var kw []string
	seen := map[string]bool{}
	for _, k := range append([]string{rec.ErrorCode, rec.ErrorClass, rec.BackgroundTag}, rec.Tags...) {
		if k = oneLine(k); k != "" && !seen[k] {
			seen[k] = true
			kw = append(kw, k)
		}
	}
	a.Keywords = strings.Join(kw, ", ")
	if rec.ErrorClass != "" {
		a.About = append(a.About, ldThing{Type: "Thing", Name: rec.ErrorClass})
	}
	return a
}

// webURL returns u when it is an absolute http or https URL, else "": only
// those become links, whatever else a record holds.
func webURL(u string) string {
	p, err := url.Parse(strings.TrimSpace(u))
	if err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
		return ""
	}
	return p.String()
}

// oneLine folds white space runs (newlines included) into single spaces,
// for titles and descriptions.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
