package sqlext_test

import "testing"

// TestStrToDate reads dates and times as STR_TO_DATE's format says; the
// answers are MariaDB 10.11's (read as text, which the Go driver does not
// turn into time.Time).
func TestStrToDate(t *testing.T) {
	_, db := openIn(t, t.TempDir())
	wantAnswers(t, db, "STR_TO_DATE", map[string]string{
		"SELECT CONCAT(STR_TO_DATE('15/01/2024', '%d/%m/%Y')), CONCAT(STR_TO_DATE('Jan 5 2024 3pm', '%b %e %Y %l%p')), CONCAT(STR_TO_DATE('10:20:30', '%T'))":                 "2024-01-15,2024-01-05 15:00:00,10:20:30",
		"SELECT CONCAT(STR_TO_DATE('12:30 am', '%h:%i %p')), CONCAT(STR_TO_DATE('03:04:05 PM', '%r')), CONCAT(STR_TO_DATE('13:00 pm', '%h:%i %p'))":                           "00:30:00,15:04:05,NULL",
		"SELECT CONCAT(STR_TO_DATE('Monday, 15 January 2024', '%W, %d %M %Y')), CONCAT(STR_TO_DATE('5th March 2024', '%D %M %Y')), CONCAT(STR_TO_DATE('2024 032', '%Y %j'))":  "2024-01-15,2024-03-05,2024-02-01",
		"SELECT CONCAT(STR_TO_DATE('24-1-5', '%y-%m-%d')), CONCAT(STR_TO_DATE('2024-01-15abc', '%Y-%m-%d')), CONCAT(STR_TO_DATE('x', '%Y')), CONCAT(STR_TO_DATE(NULL, '%Y'))": "2024-01-05,2024-01-15,NULL,NULL",
		"SELECT MICROSECOND((STR_TO_DATE('2024-01-15 10:20:30.5', '%Y-%m-%d %H:%i:%s.%f')))":                                                                                  "500000",
	})
}

// TestStrToDateWeeks reads a week and a weekday as MySQL does, which is
// how BI tools group rows by week: STR_TO_DATE(CONCAT(YEARWEEK(d),
// ' Sunday'), '%X%V %W') is the Sunday that begins d's week. The engine
// answered NULL. Every answer is MariaDB 10.11's. %V with a plain year,
// or %u with %X, names no date.
func TestStrToDateWeeks(t *testing.T) {
	_, db := openIn(t, t.TempDir())
	wantAnswers(t, db, "STR_TO_DATE of weeks", map[string]string{
		"SELECT CONCAT(STR_TO_DATE('202301 Sunday', '%X%V %W')), CONCAT(STR_TO_DATE('201952 Sunday', '%X%V %W')), CONCAT(STR_TO_DATE('202153 Sunday', '%X%V %W'))":                                                     "2023-01-01,2019-12-29,2022-01-02",
		"SELECT CONCAT(STR_TO_DATE('2024 10 3', '%x %v %w')), CONCAT(STR_TO_DATE('202053 Monday', '%x%v %W')), CONCAT(STR_TO_DATE('2021 01 Mon', '%x %v %a'))":                                                         "2024-03-06,2020-12-28,2021-01-04",
		"SELECT CONCAT(STR_TO_DATE('2024 00 Mon', '%Y %U %a')), CONCAT(STR_TO_DATE('2021 01 0', '%Y %U %w')), CONCAT(STR_TO_DATE('2024 01 Sunday', '%Y %u %W'))":                                                       "2024-01-01,2021-01-03,2024-01-07",
		"SELECT CONCAT(STR_TO_DATE(CONCAT(YEARWEEK(DATE '2024-07-04'), ' Sunday'), '%X%V %W')), CONCAT(STR_TO_DATE(CONCAT(YEARWEEK('2021-01-01', 3), ' Monday'), '%x%v %W'))":                                          "2024-06-30,2020-12-28",
		"SELECT CONCAT(STR_TO_DATE('2024 01 Sunday', '%X %u %W')), CONCAT(STR_TO_DATE('2024 01 Sunday', '%Y %V %W')), CONCAT(STR_TO_DATE('2024 01 7', '%Y %u %w')), CONCAT(STR_TO_DATE('2024 01 Sunday', '%x %V %W'))": "NULL,NULL,NULL,NULL",
	})
}
