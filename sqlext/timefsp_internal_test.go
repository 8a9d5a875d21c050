package sqlext

import (
	"testing"

	"github.com/dolthub/go-mysql-server/sql/types"
)

// TestTimeTypeText: a TIME(n) is kept as the text time or time(n), and
// the engine's time(6), which every TIME was recorded as before TIME
// took a precision, reads as TIME(6).
func TestTimeTypeText(t *testing.T) {
	for _, c := range []struct {
		text, want string
		isTime     bool
	}{
		{"time", "time", true}, {"time(0)", "time", true}, {"TIME(3)", "time(3)", true}, {"time(6)", "time(6)", true},
		{"datetime(2)", "datetime(2)", false}, {"timestamp", "timestamp", false},
	} {
		typ, err := parseColumnType(c.text)
		if err != nil {
			t.Fatalf("%s: %v", c.text, err)
		}
		if typ.String() != c.want {
			t.Errorf("%s reads as %s, want %s", c.text, typ, c.want)
		}
		if _, ok := typ.(timeType); ok != c.isTime {
			t.Errorf("%s reads as %T", c.text, typ)
		}
	}
	if _, err := parseColumnType("time(7)"); err == nil {
		t.Error("time(7) reads")
	}
}

// TestRoundTimespan: rounding is half away from zero, to the digits
// asked, within TIME's range; truncation drops the digits.
func TestRoundTimespan(t *testing.T) {
	const s = 1_000_000
	for _, c := range []struct {
		us       int64
		digits   int
		truncate bool
		want     string
	}{
		{12*3600*s + 34*60*s + 56*s + 789_000, 0, false, "12:34:57"},
		{12*3600*s + 34*60*s + 56*s + 789_000, 2, false, "12:34:56.79"},
		{12*3600*s + 34*60*s + 56*s + 789_000, 2, true, "12:34:56.78"},
		{-(56*s + 500_000), 0, false, "-00:00:57"},
		{-(56*s + 499_999), 0, false, "-00:00:56"},
		{-(56*s + 999_999), 3, true, "-00:00:56.999"},
		{59*60*s + 59*s + 999_500, 3, false, "01:00:00.000"},
		{838*3600*s + 59*60*s + 59*s + 500_000, 0, false, "838:59:59"},
		{838*3600*s + 59*60*s + 59*s, 6, false, "838:59:59.000000"},
		{123, 6, false, "00:00:00.000123"},
	} {
		got := string(appendTimespan(nil, roundTimespan(types.Timespan(c.us), c.digits, c.truncate), c.digits))
		if got != c.want {
			t.Errorf("%d to %d digits (truncate %v) = %s, want %s", c.us, c.digits, c.truncate, got, c.want)
		}
	}
}
