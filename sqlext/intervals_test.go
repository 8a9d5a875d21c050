package sqlext_test

import "testing"

// TestCompoundIntervals adds and subtracts MySQL's compound interval
// units; the answers are MariaDB 10.11's.
func TestCompoundIntervals(t *testing.T) {
	_, db := openIn(t, t.TempDir())
	wantAnswers(t, db, "compound intervals", map[string]string{
		"SELECT DATE_ADD('2024-01-01 00:00:00', INTERVAL '1.5' SECOND_MICROSECOND), '2024-01-01 00:00:00' + INTERVAL '5' HOUR_MINUTE":                  "2024-01-01 00:00:01.500000,2024-01-01 00:05:00",
		"SELECT DATE_SUB('2024-01-01 00:00:00', INTERVAL '1:30' HOUR_MINUTE), DATE_ADD('2024-01-01', INTERVAL '2-6' YEAR_MONTH)":                       "2023-12-31 22:30:00,2026-07-01",
		"SELECT DATE_ADD('2024-01-01 00:00:00', INTERVAL '1 2:3:4.000005' DAY_MICROSECOND), DATE_ADD('2024-01-01 00:00:00', INTERVAL '-1 2' DAY_HOUR)": "2024-01-02 02:03:04.000005,2023-12-30 22:00:00",
		"SELECT DATE_ADD('2024-01-01 00:00:00', INTERVAL '1:2.3' MINUTE_MICROSECOND), 'INTERVAL ''1:30'' HOUR_MINUTE'":                                 "2024-01-01 00:01:02.300000,INTERVAL '1:30' HOUR_MINUTE",
	})
}
