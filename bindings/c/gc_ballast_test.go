package main

import "testing"

func TestBallastBytes(t *testing.T) {
	cases := []struct {
		setting, gogc, memoryLimit string
		mib                        int
	}{
		{"", "", "", defaultBallastMiB},
		{"0", "", "", 0},
		{"64", "", "", 64},
		{"4096", "", "", 4096},
		{"4097", "", "", defaultBallastMiB},
		{"-1", "", "", defaultBallastMiB},
		{"16 MiB", "", "", defaultBallastMiB},
		{"64", "200", "", 0},
		{"", "", "1GiB", 0},
		{"", "off", "", 0},
	}
	for _, c := range cases {
		if got := ballastBytes(c.setting, c.gogc, c.memoryLimit); got != c.mib<<20 {
			t.Errorf("ballastBytes(%q, GOGC=%q, GOMEMLIMIT=%q) = %d bytes, want %d MiB", c.setting, c.gogc,
				c.memoryLimit, got, c.mib)
		}
	}
}
