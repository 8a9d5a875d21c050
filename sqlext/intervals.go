package sqlext

import (
	"strconv"
	"strings"
)

// MySQL's compound interval units (INTERVAL '1:30' HOUR_MINUTE, INTERVAL
// '2-6' YEAR_MONTH, ...) take several numbers in one string. The engine's
// parser knows only the single units, so DATE_ADD(t, INTERVAL '1:30'
// HOUR_MINUTE) was a syntax error. A statement the parser refuses is
// tried again with each such interval written as the same span in its
// smallest unit (INTERVAL 90 MINUTE), which the engine adds as MySQL adds
// the compound one.

// compoundUnit is one compound unit: the single unit its span is written
// in, and how many of that unit each of its parts is worth, largest first.
type compoundUnit struct {
	unit  string
	parts []int64
}

var compoundUnits = map[string]compoundUnit{
	"YEAR_MONTH":         {"MONTH", []int64{12, 1}},
	"DAY_HOUR":           {"HOUR", []int64{24, 1}},
	"DAY_MINUTE":         {"MINUTE", []int64{24 * 60, 60, 1}},
	"DAY_SECOND":         {"SECOND", []int64{86400, 3600, 60, 1}},
	"HOUR_MINUTE":        {"MINUTE", []int64{60, 1}},
	"HOUR_SECOND":        {"SECOND", []int64{3600, 60, 1}},
	"MINUTE_SECOND":      {"SECOND", []int64{60, 1}},
	"DAY_MICROSECOND":    {"MICROSECOND", []int64{86400e6, 3600e6, 60e6, 1e6, 1}},
	"HOUR_MICROSECOND":   {"MICROSECOND", []int64{3600e6, 60e6, 1e6, 1}},
	"MINUTE_MICROSECOND": {"MICROSECOND", []int64{60e6, 1e6, 1}},
	"SECOND_MICROSECOND": {"MICROSECOND", []int64{1e6, 1}},
}

// rewriteCompoundIntervals writes each INTERVAL 'text' UNIT_UNIT of q as
// INTERVAL n UNIT, and reports whether it found any.
func rewriteCompoundIntervals(q string) (string, bool) {
	toks := sqlTokens(q)
	var b strings.Builder
	last, changed := 0, false
	for i := 0; i+2 < len(toks); i++ {
		if !toks[i].word || !strings.EqualFold(toks[i].text, "INTERVAL") {
			continue
		}
		value, unit := toks[i+1], toks[i+2]
		cu, ok := compoundUnits[strings.ToUpper(unit.text)]
		if !ok || !unit.word || len(value.text) < 2 || (value.text[0] != '\'' && value.text[0] != '"') {
			continue
		}
		n, ok := compoundSpan(unquote(value.text), cu.parts)
		if !ok {
			continue
		}
		b.WriteString(q[last:value.start])
		b.WriteString(strconv.FormatInt(n, 10) + " " + cu.unit)
		last, changed = unit.end, true
		i += 2
	}
	if !changed {
		return q, false
	}
	b.WriteString(q[last:])
	return b.String(), true
}

// compoundSpan reads the numbers of a compound interval's text, which any
// characters other than digits separate; fewer numbers than the unit has
// fill its smallest parts, as in MySQL ('5' HOUR_MINUTE is 5 minutes). A
// leading minus makes the whole span negative. The microseconds part is
// read as a fraction of a second ('1.5' SECOND_MICROSECOND is 1.5 s).
func compoundSpan(text string, parts []int64) (int64, bool) {
	s := strings.TrimSpace(text)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var nums []string
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r < '0' || r > '9' }) {
		nums = append(nums, f)
	}
	if len(nums) == 0 || len(nums) > len(parts) {
		return 0, false
	}
	micro := parts[len(parts)-1] == 1 && len(parts) > 1 && parts[len(parts)-2] == 1e6
	var total int64
	offset := len(parts) - len(nums)
	for k, f := range nums {
		v, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			return 0, false
		}
		if micro && k == len(nums)-1 && len(nums) > 1 {
			// The digits after the point are a fraction: .5 is 500000.
			if len(f) > 6 {
				return 0, false
			}
			v *= pow10(6 - len(f))
		}
		total += v * parts[offset+k]
	}
	if neg {
		total = -total
	}
	return total, true
}

func pow10(n int) int64 {
	p := int64(1)
	for range n {
		p *= 10
	}
	return p
}
