package main

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"net/url"
	"os"

	"github.com/BurntSushi/toml"

	"github.com/errdocs/errdocs/generator/render"
)

// fileConfig is errdocs.toml: site settings that rarely change between
// builds. Flags given on the command line override it.
type fileConfig struct {
	Title       string `toml:"title"`
	Description string `toml:"description"`
	BaseURL     string `toml:"baseURL"`
	PerPage     int    `toml:"perPage"`
	ReportURL   string `toml:"reportURL"`
}

// loadConfig reads the config file: the one named, or errdocs.toml in the
// working folder when it exists.
func loadConfig(path string, named bool) (fileConfig, error) {
	var c fileConfig
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) && !named {
		return c, nil
	}
	if err != nil {
		return c, fmt.Errorf("config: %w", err)
	}
	md, err := toml.Decode(string(data), &c)
	if err != nil {
		return c, errUsage{fmt.Sprintf("config %s: %v", path, err)}
	}
	if keys := md.Undecoded(); len(keys) > 0 {
		return c, errUsage{fmt.Sprintf("config %s: unknown setting %q", path, keys[0].String())}
	}
	return c, nil
}

// siteSettings are the site-wide settings, from the config file and flags.
type siteSettings struct {
	config                      string
	title, description, baseURL string
	reportURL                   string
	perPage                     int
}

func (s *siteSettings) register(fs *flag.FlagSet) {
	fs.StringVar(&s.config, "config", "errdocs.toml", "site config `file` (TOML: title, description, baseURL, perPage, reportURL)")
	fs.StringVar(&s.title, "title", "", "site title (default from the config file, else \"errdocs\")")
	fs.StringVar(&s.description, "description", "", "site description")
	fs.StringVar(&s.baseURL, "base-url", "", "absolute `URL` the site is published at, for canonical links, sitemaps and the feed")
	fs.IntVar(&s.perPage, "per-page", 0, "entries per listing page (default 100)")
	fs.StringVar(&s.reportURL, "report-url", "", "`URL` template of the \"Report a problem with this page\" link on record pages; {id}, {repo}, {url} and {title} are replaced, URL-encoded (default: no link)")
}

// resolve merges the config file under the flags that were set.
func (s *siteSettings) resolve(fs *flag.FlagSet) error {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	c, err := loadConfig(s.config, set["config"])
	if err != nil {
		return err
	}
	if !set["title"] {
		s.title = c.Title
	}
	if !set["description"] {
		s.description = c.Description
	}
	if !set["base-url"] {
		s.baseURL = c.BaseURL
	}
	if !set["per-page"] {
		s.perPage = c.PerPage
	}
	if !set["report-url"] {
		s.reportURL = c.ReportURL
	}
	if err := render.CheckReportURL(s.reportURL); err != nil {
		return errUsage{err.Error()}
	}
	if s.perPage < 0 {
		return errUsage{"--per-page must be positive"}
	}
	if s.baseURL != "" {
		u, err := url.Parse(s.baseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return errUsage{fmt.Sprintf("base URL %q must be an absolute http or https URL", s.baseURL)}
		}
		if u.Path == "" || u.Path[len(u.Path)-1] != '/' {
			u.Path += "/"
		}
		u.RawQuery, u.Fragment = "", ""
		s.baseURL = u.String()
	}
	return nil
}
