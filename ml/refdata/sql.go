package refdata

import (
	"strconv"
	"strings"

	"github.com/sqlearn/sqlearn/ml"
)

// TableSQL returns the statements that create table name with an id
// primary key and load rows idx of d into it (id = the row's index in d),
// features then target, in INSERTs of up to 1,000 rows: how the SQL-side
// tests and benchmarks put a reference dataset into a server.
func TableSQL(name string, d *ml.Dataset, idx []int) []string {
	cols := append(append([]ml.Column(nil), d.Features...), *d.Target)
	var b strings.Builder
	b.WriteString("CREATE TABLE " + name + " (id BIGINT PRIMARY KEY")
	for _, c := range cols {
		typ := "DOUBLE"
		if c.Kind == ml.Categorical {
			typ = "VARCHAR(64)"
		}
		b.WriteString(", `" + c.Name + "` " + typ)
	}
	b.WriteString(")")
	out := []string{b.String()}
	for lo := 0; lo < len(idx); lo += 1000 {
		b.Reset()
		b.WriteString("INSERT INTO " + name + " VALUES ")
		for k, i := range idx[lo:min(lo+1000, len(idx))] {
			if k > 0 {
				b.WriteByte(',')
			}
			b.WriteString("(" + strconv.Itoa(i))
			for _, c := range cols {
				switch {
				case c.IsNull(i):
					b.WriteString(",NULL")
				case c.Kind == ml.Categorical:
					b.WriteString(",'" + strings.ReplaceAll(c.Str[i], "'", "''") + "'")
				default:
					b.WriteString("," + strconv.FormatFloat(c.Num[i], 'g', -1, 64))
				}
			}
			b.WriteByte(')')
		}
		out = append(out, b.String())
	}
	return out
}
