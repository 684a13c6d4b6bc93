package main

import (
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestRunExitCodes(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		args []string
		want int
	}{
		{[]string{"-h"}, 0},
		{[]string{}, 2},
		{[]string{"-records", "5"}, 2},
		{[]string{"-bogus", dir}, 2},
		{[]string{"-records", "-1", dir}, 2},
		{[]string{"-q", "-records", "300", "-seed", "4", dir}, 0},
		{[]string{"-q", "-manifest", dir}, 0},
		{[]string{"-manifest", filepath.Join(dir, "missing")}, 1},
	}
	for _, c := range cases {
		if got := run(c.args, io.Discard, io.Discard); got != c.want {
			t.Errorf("gencorpus %v: exit %d, want %d", c.args, got, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "manifest.json")); err != nil {
		t.Error(err)
	}
}
