package sqlext

import (
	"fmt"
	"strings"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/types"
)

// STR_TO_DATE(str, format) reads str as format describes, as MySQL does.
// The engine's ignored %p (3pm read as 03:00, 12:30 am as 12:30), read %r
// without its AM/PM, dropped the fraction of %f, and failed on a weekday
// name (%W). The result is a DATETIME when the format names both date and
// time parts, a DATE for date parts only, a TIME for time parts only (a
// format that is not a constant gives a DATETIME); text that does not
// match is NULL with warning 1411. A week and a weekday name a date as
// MySQL reads them: %U and %u count weeks in a %Y year from its first
// Sunday or Monday, %V and %v in a %X or %x year (the year a week
// belongs to), and %W, %a or %w give the day within the week. This is
// how BI tools group by week: STR_TO_DATE(CONCAT(YEARWEEK(d), ' Sunday'),
// '%X%V %W').

// erWrongValueForFunction is MySQL's ER_WRONG_VALUE_FOR_TYPE, "Incorrect
// datetime value: 'x' for function str_to_date".
const erWrongValueForFunction = 1411

var strToDateFunction = scalar("str_to_date", 2, 2, strToDateType, strToDate)

// strToDateType is the result's type from a constant format.
func strToDateType(args []sql.Expression) sql.Type {
	lit, ok := args[1].(*expression.Literal)
	if !ok {
		return types.DatetimeMaxPrecision
	}
	f, ok := lit.Value().(string)
	if !ok {
		return types.DatetimeMaxPrecision
	}
	date, clock, frac := formatParts(f)
	switch {
	case date && !clock:
		return types.Date
	case clock && !date:
		return types.Time
	case frac:
		return types.DatetimeMaxPrecision
	}
	return types.Datetime
}

// formatParts says whether format names date parts, time parts and
// fractional seconds.
func formatParts(format string) (date, clock, frac bool) {
	for i := 0; i+1 < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		i++
		switch format[i] {
		case 'a', 'b', 'c', 'D', 'd', 'e', 'j', 'M', 'm', 'U', 'u', 'V', 'v', 'W', 'w', 'X', 'x', 'Y', 'y':
			date = true
		case 'f':
			clock, frac = true, true
		case 'H', 'h', 'I', 'i', 'k', 'l', 'p', 'r', 'S', 's', 'T':
			clock = true
		}
	}
	return date, clock, frac
}

// dateReading is what STR_TO_DATE has read so far.
type dateReading struct {
	year, month, day, yday     int
	hour, minute, second, usec int
	pm, twelve, hasPM          bool
	// week is the week read by %U, %u, %V or %v, -1 when none was;
	// weekday is 1 (Monday) to 7 (Sunday), 0 when none was read.
	week, weekday int
	// sundayFirst: the week read starts on Sunday (%U, %V); strictWeek:
	// it counts in a week-based year (%V, %v), which %X or %x gives as
	// weekYear (-1 when neither was read), starting on Sunday when
	// weekYearSunday.
	sundayFirst, strictWeek bool
	weekYear                int
	weekYearSunday          bool
}

func strToDate(ctx *sql.Context, v []any) (any, error) {
	if v[0] == nil || v[1] == nil {
		return nil, nil
	}
	str, format := fmt.Sprint(v[0]), fmt.Sprint(v[1])
	if b, ok := v[0].([]byte); ok {
		str = string(b)
	}
	if b, ok := v[1].([]byte); ok {
		format = string(b)
	}
	r, ok := readDate(str, format)
	if !ok {
		ctx.Warn(erWrongValueForFunction, "Incorrect datetime value: '%s' for function str_to_date", str)
		return nil, nil
	}
	if r.hasPM || r.twelve {
		if r.hour < 1 || r.hour > 12 {
			ctx.Warn(erWrongValueForFunction, "Incorrect datetime value: '%s' for function str_to_date", str)
			return nil, nil
		}
		r.hour %= 12
		if r.pm {
			r.hour += 12
		}
	}
	date, clock, _ := formatParts(format)
	if clock && !date {
		t, _, err := types.Time.Convert(ctx, fmt.Sprintf("%02d:%02d:%02d.%06d", r.hour, r.minute, r.second, r.usec))
		return t, err
	}
	if r.yday > 0 {
		t := time.Date(r.year, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, r.yday-1)
		r.month, r.day = int(t.Month()), t.Day()
	}
	if r.week >= 0 && r.weekday > 0 && !r.dateOfWeek() {
		ctx.Warn(erWrongValueForFunction, "Incorrect datetime value: '%s' for function str_to_date", str)
		return nil, nil
	}
	if r.month < 1 || r.month > 12 || r.day < 1 || r.day > daysIn(r.year, r.month) || r.hour > 23 || r.minute > 59 || r.second > 59 {
		ctx.Warn(erWrongValueForFunction, "Incorrect datetime value: '%s' for function str_to_date", str)
		return nil, nil
	}
	return time.Date(r.year, time.Month(r.month), r.day, r.hour, r.minute, r.second, r.usec*1000, time.UTC), nil
}

// dateOfWeek sets the date from the week and weekday read, as MySQL
// does: %V and %v need %X and %x (of the same first day), %U and %u a
// plain year. Week 1 of a Sunday-first count holds the year's first
// Sunday; of a Monday-first one, the first week with four days in the
// year.
func (r *dateReading) dateOfWeek() bool {
	if r.strictWeek && (r.weekYear < 0 || r.weekYearSunday != r.sundayFirst) || !r.strictWeek && r.weekYear >= 0 {
		return false
	}
	year := r.year
	if r.strictWeek {
		year = r.weekYear
	}
	jan1 := time.Date(year, 1, 1, 0, 0, 0, 0, time.UTC)
	var days int
	if r.sundayFirst {
		first := int(jan1.Weekday()) // 0 is Sunday
		if first != 0 {
			days = 7 - first
		}
		days += (r.week-1)*7 + r.weekday%7
	} else {
		first := (int(jan1.Weekday()) + 6) % 7 // 0 is Monday
		if first > 3 {
			days = 7 - first
		} else {
			days = -first
		}
		days += (r.week-1)*7 + r.weekday - 1
	}
	t := jan1.AddDate(0, 0, days)
	if t.Year() < 0 || t.Year() > 9999 {
		return false
	}
	r.year, r.month, r.day = t.Year(), int(t.Month()), t.Day()
	return true
}

func daysIn(year, month int) int {
	return time.Date(year, time.Month(month)+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// readDate matches str against format; text after the last specifier is
// left unread, as MySQL leaves it (with a warning there).
func readDate(str, format string) (dateReading, bool) {
	r := dateReading{week: -1, weekYear: -1}
	s := str
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' || i+1 == len(format) {
			if c == ' ' || c == '\t' {
				s = strings.TrimLeft(s, " \t")
				continue
			}
			if s == "" || s[0] != c {
				return r, false
			}
			s = s[1:]
			continue
		}
		i++
		var ok bool
		switch format[i] {
		case 'Y':
			r.year, s, ok = readInt(s, 4)
		case 'y':
			r.year, s, ok = readInt(s, 2)
			r.year += 2000
			if r.year >= 2070 {
				r.year -= 100
			}
		case 'm', 'c':
			r.month, s, ok = readInt(s, 2)
		case 'd', 'e':
			r.day, s, ok = readInt(s, 2)
		case 'D':
			if r.day, s, ok = readInt(s, 2); ok && len(s) >= 2 {
				s = s[2:] // st, nd, rd, th
			}
		case 'j':
			r.yday, s, ok = readInt(s, 3)
		case 'H', 'k':
			r.hour, s, ok = readInt(s, 2)
		case 'h', 'I', 'l':
			r.hour, s, ok = readInt(s, 2)
			r.twelve = true
		case 'i':
			r.minute, s, ok = readInt(s, 2)
		case 'S', 's':
			r.second, s, ok = readInt(s, 2)
		case 'f':
			digits := 0
			for digits < len(s) && digits < 6 && s[digits] >= '0' && s[digits] <= '9' {
				digits++
			}
			if ok = digits > 0; ok {
				r.usec, _, _ = readInt(s, digits)
				r.usec *= int(pow10(6 - digits))
				s = s[digits:]
			}
		case 'p':
			s, ok = r.readPM(s)
		case 'r':
			if r.hour, s, ok = readInt(s, 2); ok {
				r.twelve = true
				if r.minute, s, ok = readSep(s, ':', 2); ok {
					if r.second, s, ok = readSep(s, ':', 2); ok {
						s, ok = r.readPM(strings.TrimLeft(s, " "))
					}
				}
			}
		case 'T':
			if r.hour, s, ok = readInt(s, 2); ok {
				if r.minute, s, ok = readSep(s, ':', 2); ok {
					r.second, s, ok = readSep(s, ':', 2)
				}
			}
		case 'M', 'b':
			r.month, s, ok = readName(s, months, format[i] == 'b')
		case 'W', 'a':
			r.weekday, s, ok = readName(s, weekdays, format[i] == 'a')
		case 'w':
			if r.weekday, s, ok = readInt(s, 1); ok && r.weekday > 6 {
				ok = false
			} else if r.weekday == 0 {
				r.weekday = 7
			}
		case 'U', 'u', 'V', 'v':
			r.week, s, ok = readInt(s, 2)
			r.sundayFirst = format[i] == 'U' || format[i] == 'V'
			r.strictWeek = format[i] == 'V' || format[i] == 'v'
		case 'X', 'x':
			r.weekYear, s, ok = readInt(s, 4)
			r.weekYearSunday = format[i] == 'X'
		case '%':
			ok = strings.HasPrefix(s, "%")
			if ok {
				s = s[1:]
			}
		default:
			return r, false
		}
		if !ok {
			return r, false
		}
	}
	return r, true
}

func (r *dateReading) readPM(s string) (string, bool) {
	switch {
	case len(s) >= 2 && strings.EqualFold(s[:2], "AM"):
		r.hasPM = true
	case len(s) >= 2 && strings.EqualFold(s[:2], "PM"):
		r.hasPM, r.pm = true, true
	default:
		return s, false
	}
	return s[2:], true
}

// readInt reads up to max digits.
func readInt(s string, max int) (int, string, bool) {
	n, i := 0, 0
	for i < len(s) && i < max && s[i] >= '0' && s[i] <= '9' {
		n = n*10 + int(s[i]-'0')
		i++
	}
	return n, s[i:], i > 0
}

// readSep reads sep and then up to max digits.
func readSep(s string, sep byte, max int) (int, string, bool) {
	if s == "" || s[0] != sep {
		return 0, s, false
	}
	return readInt(s[1:], max)
}

var (
	months   = []string{"january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"}
	weekdays = []string{"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"}
)

// readName reads a month or weekday name, whole or its first three
// letters, and returns its number from 1.
func readName(s string, names []string, abbreviated bool) (int, string, bool) {
	low := strings.ToLower(s)
	for k, n := range names {
		if abbreviated {
			n = n[:3]
		}
		if strings.HasPrefix(low, n) {
			return k + 1, s[len(n):], true
		}
	}
	return 0, s, false
}
