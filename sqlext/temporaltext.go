package sqlext

import (
	"fmt"
	"strings"
	"time"
)

// MySQL reads a date, a date and time or a time from text by its own
// rules, laxer than the engine's layouts: any punctuation between the
// parts ('2024/1/5'), one- and two-digit parts, a two-digit year, digits
// alone ('20240115', '102030'), and text after the value, which it
// drops with a warning ('2024-01-15x' is 2024-01-15). scanDatetime and
// scanTime read that way and say what is left after the value; the
// typed literals (literals.go) and the functions that read text as a
// date (truncated.go) use them.

// temporalKind is what a text names: a date, a date and time, or a time.
type temporalKind int

const (
	kindDate temporalKind = iota + 1
	kindDatetime
	kindTime
)

// temporalText is a value read from text.
type temporalText struct {
	kind                         temporalKind
	neg                          bool // a negative TIME
	year, month, day             int
	hour, minute, second, micros int // a TIME's hour may pass 23
	digits                       int // fractional digits written, at most 6
}

// String writes the value as MySQL writes its type: a fraction with as
// many digits as were written.
func (v temporalText) String() string {
	frac := ""
	if v.digits > 0 {
		frac = fmt.Sprintf(".%0*d", v.digits, v.micros/int(pow10(6-v.digits)))
	}
	switch v.kind {
	case kindDate:
		return fmt.Sprintf("%04d-%02d-%02d", v.year, v.month, v.day)
	case kindDatetime:
		return fmt.Sprintf("%04d-%02d-%02d %02d:%02d:%02d", v.year, v.month, v.day, v.hour, v.minute, v.second) + frac
	}
	sign := ""
	if v.neg {
		sign = "-"
	}
	return fmt.Sprintf("%s%02d:%02d:%02d", sign, v.hour, v.minute, v.second) + frac
}

// kindName is the word MySQL's warnings name the kind by.
func (k temporalKind) kindName() string {
	switch k {
	case kindDate:
		return "date"
	case kindDatetime:
		return "datetime"
	}
	return "time"
}

// textScanner reads s from pos.
type textScanner struct {
	s   string
	pos int
}

// number reads up to max digits; n is how many it read.
func (sc *textScanner) number(max int) (v, n int) {
	for sc.pos < len(sc.s) && n < max && sc.s[sc.pos] >= '0' && sc.s[sc.pos] <= '9' {
		v = v*10 + int(sc.s[sc.pos]-'0')
		sc.pos++
		n++
	}
	return v, n
}

// separator reads one punctuation character between two parts, when a
// digit follows it.
func (sc *textScanner) separator() bool {
	if sc.pos+1 >= len(sc.s) || !isPunct(sc.s[sc.pos]) || sc.s[sc.pos+1] < '0' || sc.s[sc.pos+1] > '9' {
		return false
	}
	sc.pos++
	return true
}

// part reads a separator and a number of up to two digits.
func (sc *textScanner) part() (int, bool) {
	if !sc.separator() {
		return 0, false
	}
	v, _ := sc.number(2)
	return v, true
}

// fraction reads '.' and its digits, keeping six, rounded by the
// seventh as MySQL 8 rounds; carry is 1 when rounding reaches a whole
// second.
func (sc *textScanner) fraction() (micros, digits, carry int) {
	if sc.pos >= len(sc.s) || sc.s[sc.pos] != '.' {
		return 0, 0, 0
	}
	sc.pos++
	v, n := sc.number(6)
	digits = n
	micros = v * int(pow10(6-n))
	if next, m := sc.number(1); m == 1 && next >= 5 {
		micros++
	}
	for sc.pos < len(sc.s) && sc.s[sc.pos] >= '0' && sc.s[sc.pos] <= '9' {
		sc.pos++
	}
	if micros == 1_000_000 {
		return 0, digits, 1
	}
	return micros, digits, 0
}

func isPunct(c byte) bool {
	return c > ' ' && c < 0x7f && !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z')
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// twoDigitYear reads a two-digit year as MySQL does: 70-99 in the 1900s,
// the rest in the 2000s.
func twoDigitYear(y int) int {
	if y < 70 {
		return y + 2000
	}
	return y + 1900
}

// scanDatetime reads a date or a date and time from the start of s
// (leading spaces skipped) and returns it and the text after it; ok is
// false when s does not start with one, or names a date that does not
// exist (month 13, February 30th, a zero date).
func scanDatetime(s string) (v temporalText, rest string, ok bool) {
	sc := &textScanner{s: s}
	for sc.pos < len(s) && isSpace(s[sc.pos]) {
		sc.pos++
	}
	start := sc.pos
	_, n := sc.number(14)
	sc.pos = start
	if end := start + n; n >= 6 && (end == len(s) || !isPunct(s[end]) || s[end] == '.') && n%2 == 0 && n != 10 {
		// Digits alone: YYMMDD, YYYYMMDD, YYMMDDhhmmss, YYYYMMDDhhmmss.
		yearDigits := 4
		if n == 6 || n == 12 {
			yearDigits = 2
		}
		v.year, _ = sc.number(yearDigits)
		if yearDigits == 2 {
			v.year = twoDigitYear(v.year)
		}
		v.month, _ = sc.number(2)
		v.day, _ = sc.number(2)
		v.kind = kindDate
		if n >= 12 {
			v.kind = kindDatetime
			v.hour, _ = sc.number(2)
			v.minute, _ = sc.number(2)
			v.second, _ = sc.number(2)
		}
	} else {
		y, yn := sc.number(4)
		if yn == 0 {
			return v, s, false
		}
		if yn <= 2 {
			y = twoDigitYear(y)
		}
		v.year, v.kind = y, kindDate
		var ok1, ok2 bool
		v.month, ok1 = sc.part()
		v.day, ok2 = sc.part()
		if !ok1 || !ok2 {
			return v, s, false
		}
		// The time of day, after spaces or a 'T'.
		at := sc.pos
		for sc.pos < len(s) && isSpace(s[sc.pos]) {
			sc.pos++
		}
		if sc.pos == at && sc.pos < len(s) && s[sc.pos] == 'T' {
			sc.pos++
		}
		if h, hn := sc.number(2); hn > 0 && sc.pos > at {
			v.kind, v.hour = kindDatetime, h
			if m, ok := sc.part(); ok {
				v.minute = m
				if sec, ok := sc.part(); ok {
					v.second = sec
				}
			}
		} else {
			sc.pos = at
		}
	}
	var carry int
	if v.kind == kindDatetime {
		v.micros, v.digits, carry = sc.fraction()
	}
	if v.month < 1 || v.month > 12 || v.day < 1 || v.day > daysIn(v.year, v.month) || v.hour > 23 || v.minute > 59 || v.second > 59 {
		return v, s, false
	}
	if carry > 0 {
		t := time.Date(v.year, time.Month(v.month), v.day, v.hour, v.minute, v.second+1, 0, time.UTC)
		v.year, v.month, v.day, v.hour, v.minute, v.second = t.Year(), int(t.Month()), t.Day(), t.Hour(), t.Minute(), t.Second()
	}
	return v, s[sc.pos:], true
}

// scanTime reads a time from the start of s: [-][D ]hh:mm:ss[.f],
// hh:mm, D hh, or digits alone as [[h]hmm]ss, and a date and time as its
// time of day (kind kindDatetime then). ok is false when s starts with
// none, or with minutes or seconds past 59 or hours past 838.
func scanTime(s string) (v temporalText, rest string, ok bool) {
	v, rest, ok = scanWideTime(s)
	if ok && v.kind == kindTime && v.beyondTime() {
		return v, s, false
	}
	return v, rest, ok
}

// beyondTime reports whether v, a TIME, is past TIME's range, more than
// 838:59:59 either way (a fraction past it is rounded or cut to the
// bound when stored).
func (v temporalText) beyondTime() bool {
	return v.hour*3600+v.minute*60+v.second > maxTimeHours*3600+59*60+59
}

// scanWideTime is scanTime with hours past TIME's range read as they
// are.
func scanWideTime(s string) (v temporalText, rest string, ok bool) {
	if dt, rest, ok := scanDatetime(s); ok && dt.kind == kindDatetime {
		return dt, rest, true
	}
	sc := &textScanner{s: s}
	for sc.pos < len(s) && isSpace(s[sc.pos]) {
		sc.pos++
	}
	if sc.pos < len(s) && s[sc.pos] == '-' {
		v.neg = true
		sc.pos++
	}
	v.kind = kindTime
	first, n := sc.number(9)
	if n == 0 {
		return v, s, false
	}
	days := 0
	if at := sc.pos; at+1 < len(s) && s[at] == ' ' && s[at+1] >= '0' && s[at+1] <= '9' {
		// Days, then the hours.
		sc.pos++
		days = first
		first, _ = sc.number(3)
		v.hour = first
		if m, ok := sc.part(); ok {
			v.minute = m
			if sec, ok := sc.part(); ok {
				v.second = sec
			}
		}
	} else if sc.pos < len(s) && s[sc.pos] == ':' {
		v.hour = first
		v.minute, _ = sc.part()
		if sec, ok := sc.part(); ok {
			v.second = sec
		}
	} else {
		v.hour, v.minute, v.second = first/10000, first/100%100, first%100
	}
	var carry int
	v.micros, v.digits, carry = sc.fraction()
	v.hour += days * 24
	if v.minute > 59 || v.second > 59 {
		return v, s, false
	}
	if carry > 0 {
		total := v.hour*3600 + v.minute*60 + v.second + 1
		v.hour, v.minute, v.second = total/3600, total/60%60, total%60
	}
	return v, s[sc.pos:], true
}

// onlySpaces reports whether s is empty or spaces.
func onlySpaces(s string) bool {
	return strings.TrimLeft(s, " \t\r\n") == ""
}
