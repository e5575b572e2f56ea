package core

import (
	"os"
	"sort"
	"strings"
	"testing"
)

func TestScratchMessages(t *testing.T) {
	seen := map[string]int{}
	for _, name := range []string{"tensor.mts", "deflate.mts", "block.mts"} {
		data, _ := os.ReadFile("testdata/mts/" + name)
		for i := 0; i < len(data); i++ {
			for _, flip := range []byte{0x01, 0x80, 0xff} {
				c := append([]byte(nil), data...)
				c[i] ^= flip
				var err error
				if name == "block.mts" {
					var b *Block
					b, err = LoadBlockBuffer(c, createHost)
					if err == nil {
						b.Free()
					}
				} else {
					var m *TensorMap
					m, err = LoadTensorMapBuffer(c, createHost)
					if err == nil {
						m.Free()
					}
				}
				if err == nil {
					continue
				}
				msg := err.Error()
				if !strings.Contains(msg, "at '") {
					if len(msg) > 100 {
						msg = msg[:100]
					}
					seen[msg]++
				}
			}
		}
	}
	keys := make([]string, 0, len(seen))
	for k := range seen {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.Logf("%6d %s", seen[k], k)
	}
}
