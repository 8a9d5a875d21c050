package sqlext

import (
	"encoding/binary"
	"io"
	"sync"
	"unicode/utf8"

	"github.com/dolthub/go-mysql-server/sql"
)

// writeWeights writes to w the bytes sql.CollationID.WriteWeightString
// writes for s under coll: each rune's weight, four bytes little-endian
// (or s itself under the binary collation), so that hashes and keys made
// from them are the engine's. It looks the weights of ASCII runes up in a
// table made once per collation, where the engine looks every rune up in
// a map, and writes in blocks rather than four bytes at a time: DISTINCT
// over sysbench's 120-character text spent an eighth of oltp_read_only's
// time there.
func writeWeights(w io.Writer, coll sql.CollationID, s string) error {
	if coll == sql.Collation_binary {
		_, err := io.WriteString(w, s)
		return err
	}
	ascii, sorter := asciiWeights(coll), coll.Sorter()
	var buf [512]byte
	n := 0
	for i := 0; i < len(s); {
		var wt int32
		if c := s[i]; c < utf8.RuneSelf {
			wt = ascii[c]
			i++
		} else {
			r, size := utf8.DecodeRuneInString(s[i:])
			wt = sorter(r)
			i += size
		}
		binary.LittleEndian.PutUint32(buf[n:], uint32(wt))
		if n += 4; n == len(buf) {
			if _, err := w.Write(buf[:n]); err != nil {
				return err
			}
			n = 0
		}
	}
	if n > 0 {
		_, err := w.Write(buf[:n])
		return err
	}
	return nil
}

var asciiWeightTables sync.Map // sql.CollationID -> *[utf8.RuneSelf]int32

func asciiWeights(coll sql.CollationID) *[utf8.RuneSelf]int32 {
	if t, ok := asciiWeightTables.Load(coll); ok {
		return t.(*[utf8.RuneSelf]int32)
	}
	t := new([utf8.RuneSelf]int32)
	sorter := coll.Sorter()
	for r := range rune(utf8.RuneSelf) {
		t[r] = sorter(r)
	}
	asciiWeightTables.Store(coll, t)
	return t
}
