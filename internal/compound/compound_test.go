package compound

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestProcedureFindsTheBody(t *testing.T) {
	for _, tc := range []struct {
		text, body string
		params     []string
	}{
		{"CREATE PROCEDURE p() SELECT 1", "SELECT 1", nil},
		{"create definer=`root`@`localhost` procedure d.p(IN a INT, OUT b DECIMAL(10,2), INOUT `c d` VARCHAR(5))\nCOMMENT 'x' NOT DETERMINISTIC MODIFIES SQL DATA SQL SECURITY INVOKER\nBEGIN SET b = a; END;", "BEGIN SET b = a; END", []string{"a", "b", "c d"}},
		{"CREATE DEFINER = 'u'@'%' PROCEDURE p(a INT) l: BEGIN LEAVE l; END l", "l: BEGIN LEAVE l; END l", []string{"a"}},
		{"CREATE PROCEDURE p() /*!50003 BEGIN SELECT 1; END */", "BEGIN SELECT 1; END", nil},
	} {
		r, ok, err := Procedure(tc.text)
		if !ok || err != nil {
			t.Fatalf("%q: ok %v, err %v", tc.text, ok, err)
		}
		if got := tc.text[r.Start:r.End]; got != tc.body {
			t.Errorf("%q: body %q, want %q", tc.text, got, tc.body)
		}
		var names []string
		for _, p := range r.Params {
			names = append(names, p.Name)
		}
		if strings.Join(names, ",") != strings.Join(tc.params, ",") {
			t.Errorf("%q: params %q, want %q", tc.text, r.Params, tc.params)
		}
	}
	r, _, _ := Procedure("CREATE PROCEDURE p(IN a INT, OUT b DECIMAL(10,2), INOUT c ENUM('x','y'), d VARCHAR(5) CHARSET utf8mb4)")
	if r == nil {
		t.Fatal("no routine")
	}
	want := []Param{{"IN", "a", "INT"}, {"OUT", "b", "DECIMAL(10,2)"}, {"INOUT", "c", "ENUM('x','y')"}, {"IN", "d", "VARCHAR(5) CHARSET utf8mb4"}}
	for i, p := range r.Params {
		if p != want[i] {
			t.Errorf("param %d: %+v, want %+v", i, p, want[i])
		}
	}
	for _, other := range []string{"CREATE TABLE t (a INT)", "CREATE FUNCTION f() RETURNS INT RETURN 1", "SELECT 1", ""} {
		if _, ok, _ := Procedure(other); ok {
			t.Errorf("%q read as a procedure", other)
		}
	}
}

func TestParseShapes(t *testing.T) {
	body, err := Parse(`main: BEGIN
		DECLARE a, b INT DEFAULT (1 + 2);
		DECLARE dup CONDITION FOR SQLSTATE VALUE '23000';
		DECLARE c CURSOR FOR SELECT x FROM t WHERE y = ';';
		DECLARE CONTINUE HANDLER FOR NOT FOUND, 1146 SET a = 0;
		DECLARE EXIT HANDLER FOR dup BEGIN GET STACKED DIAGNOSTICS CONDITION 1 @m = MESSAGE_TEXT, b = MYSQL_ERRNO; RESIGNAL; END;
		IF a > CASE WHEN b THEN 1 ELSE 2 END THEN SELECT 1; ELSEIF a IS NULL THEN SELECT 2; ELSE SELECT 3; END IF;
		CASE a WHEN 1 THEN SET b = 1; ELSE BEGIN END; END CASE;
		l: WHILE a < 10 DO SET a = a + 1; IF a = 5 THEN ITERATE l; END IF; END WHILE l;
		REPEAT FETCH NEXT FROM c INTO a, b; UNTIL a > 3 END REPEAT;
		LOOP LEAVE main; END LOOP;
		SIGNAL dup SET MESSAGE_TEXT = CONCAT('a', ','), MYSQL_ERRNO = 1062;
		GET DIAGNOSTICS @n = NUMBER;
	END main`)
	if err != nil {
		t.Fatal(err)
	}
	b := body.(*Block)
	if b.Label != "main" || len(b.Vars) != 1 || len(b.Vars[0].Names) != 2 || b.Vars[0].Type != "INT" || b.Vars[0].Default != "(1 + 2)" {
		t.Fatalf("declarations: %+v", b.Vars[0])
	}
	if b.Cursors[0].Query != "SELECT x FROM t WHERE y = ';'" || b.Conds[0].Cond != (Condition{Kind: SQLState, State: "23000"}) {
		t.Fatalf("cursor %+v, condition %+v", b.Cursors[0], b.Conds[0])
	}
	if h := b.Handlers[0]; h.Exit || len(h.Conds) != 2 || h.Conds[1].Code != 1146 || h.Body.(*SQL).Text != "SET a = 0" {
		t.Fatalf("handler %+v", h)
	}
	if len(b.Body) != 7 {
		t.Fatalf("%d statements", len(b.Body))
	}
	if s := b.Body[0].(*If); s.Branches[0].Cond != "a > CASE WHEN b THEN 1 ELSE 2 END" || len(s.Branches) != 2 || len(s.Else) != 1 {
		t.Fatalf("IF %+v", s)
	}
	if s := b.Body[2].(*Loop); s.Kind != WhileLoop || s.Label != "l" || s.Cond != "a < 10" {
		t.Fatalf("WHILE %+v", s)
	}
	if s := b.Body[3].(*Loop); s.Kind != RepeatLoop || s.Cond != "a > 3" || s.Body[0].(*Fetch).Into[1] != "b" {
		t.Fatalf("REPEAT %+v", s)
	}
	if s := b.Body[5].(*Signal); s.Cond.Name != "dup" || s.Items[0].Expr != "CONCAT('a', ',')" || s.Items[1].Name != "MYSQL_ERRNO" {
		t.Fatalf("SIGNAL %+v", s)
	}
	if s := b.Body[6].(*Diagnostics); s.Stacked || s.Condition != "" || s.Items[0] != (Item{Name: "NUMBER", Expr: "@n"}) {
		t.Fatalf("GET DIAGNOSTICS %+v", s)
	}
}

func TestParseRefuses(t *testing.T) {
	for _, tc := range []struct {
		body string
		code int
	}{
		{"BEGIN SELECT 1 END", 1064},
		{"BEGIN SELECT 1; DECLARE a INT; END", 1064},
		{"BEGIN DECLARE c CURSOR FOR SELECT 1; DECLARE a INT; END", 1337},
		{"BEGIN DECLARE CONTINUE HANDLER FOR SQLEXCEPTION BEGIN END; DECLARE c CURSOR FOR SELECT 1; END", 1338},
		{"BEGIN DECLARE a INT; DECLARE A INT; END", 1331},
		{"BEGIN DECLARE x CONDITION FOR 1062; DECLARE x CONDITION FOR 1146; END", 1332},
		{"BEGIN DECLARE c CURSOR FOR SELECT 1; DECLARE c CURSOR FOR SELECT 2; END", 1333},
		{"BEGIN DECLARE CONTINUE HANDLER FOR 1062 BEGIN END; DECLARE EXIT HANDLER FOR 1062 BEGIN END; END", 1413},
		{"BEGIN DECLARE CONTINUE HANDLER FOR nope BEGIN END; END", 1319},
		{"BEGIN DECLARE UNDO HANDLER FOR SQLEXCEPTION BEGIN END; END", 1235},
		{"BEGIN DECLARE CONTINUE HANDLER FOR SQLSTATE '00000' BEGIN END; END", 1407},
		{"BEGIN OPEN c; END", 1324},
		{"BEGIN DECLARE c CURSOR FOR SELECT 1; FETCH c INTO nope; END", 1327},
		{"BEGIN LEAVE l; END", 1308},
		{"l: BEGIN ITERATE l; END", 1308},
		{"l: BEGIN l: LOOP LEAVE l; END LOOP; END", 1309},
		{"l: LOOP LEAVE l; END LOOP m", 1310},
		{"BEGIN RETURN 1; END", 1313},
		{"SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'a', MESSAGE_TEXT = 'b'", 1641},
		{"BEGIN IF a THEN SELECT 1; END", 1064},
		{"BEGIN CASE WHEN 1 THEN SELECT 1; END", 1064},
		{"BEGIN WHILE a SELECT 1; END WHILE; END", 1064},
		{"l: BEGIN DECLARE EXIT HANDLER FOR SQLEXCEPTION LEAVE l; END", 1308},
	} {
		_, err := Parse(tc.body)
		var e *Error
		if !errors.As(err, &e) || e.Code != tc.code {
			t.Errorf("%q: %v, want error %d", tc.body, err, tc.code)
		}
	}
}

// FuzzProcedure: no text makes the reader fail other than with an Error,
// and a body it reads lies inside the text.
func FuzzProcedure(f *testing.F) {
	for _, s := range []string{
		"CREATE PROCEDURE p() BEGIN DECLARE a INT DEFAULT 1; WHILE a < 3 DO SET a = a + 1; END WHILE; END",
		"CREATE PROCEDURE p(IN x INT) l: LOOP IF x THEN LEAVE l; END IF; END LOOP l",
		"CREATE PROCEDURE p() BEGIN DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN GET DIAGNOSTICS CONDITION 1 @m = MESSAGE_TEXT; RESIGNAL; END; SELECT 1; END",
		"CREATE PROCEDURE p() CASE WHEN (1) THEN BEGIN END; ELSE SIGNAL SQLSTATE '45000'; END CASE",
		"CREATE PROCEDURE p() SELECT '\\'', \"x\", `y` -- c\n#d\n/* e */",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		r, ok, err := Procedure(text)
		if !ok {
			return
		}
		var e *Error
		if err != nil && !errors.As(err, &e) {
			t.Fatalf("error of type %T: %v", err, err)
		}
		if r.Start < 0 || r.Start > r.End || r.End > len(text) {
			t.Fatalf("body [%d, %d) outside %d bytes", r.Start, r.End, len(text))
		}
	})
}

func TestVisitGivesTextsInScope(t *testing.T) {
	r, _, err := Procedure(`CREATE PROCEDURE p(a INT) BEGIN
		DECLARE b INT DEFAULT a + 1;
		DECLARE c CURSOR FOR SELECT b;
		IF a > b THEN BEGIN DECLARE d INT; SET d = 1; END; END IF;
		WHILE b < 3 DO SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'x'; END WHILE;
	END`)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	err = Visit(r, func(text string, expr bool, isVar func(string) bool) error {
		got = append(got, fmt.Sprintf("%s|%v|%v%v", text, expr, isVar("a"), isVar("d")))
		return nil
	})
	want := []string{"a + 1|true|truefalse", "SELECT b|false|truefalse", "a > b|true|truefalse", "SET d = 1|false|truetrue", "b < 3|true|truefalse", "'x'|true|truefalse"}
	if err != nil || strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("%v\n%s", err, strings.Join(got, "\n"))
	}
}

func TestFunctionHeader(t *testing.T) {
	for _, tc := range []struct {
		text, db, name, returns, body string
		params                        int
		hasReturn                     bool
	}{
		{"CREATE FUNCTION f(x INT) RETURNS INT DETERMINISTIC RETURN x * 2", "", "f", "INT", "RETURN x * 2", 1, true},
		{"CREATE DEFINER=`a`@`%` FUNCTION IF NOT EXISTS d.`g h`() RETURNS VARCHAR(20) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin READS SQL DATA BEGIN DECLARE s TEXT; RETURN s; END", "d", "g h", "VARCHAR(20) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin", "BEGIN DECLARE s TEXT; RETURN s; END", 0, true},
		{"CREATE FUNCTION u(a BIGINT, b DECIMAL(5,2)) RETURNS BIGINT UNSIGNED NO SQL BEGIN SET @x = a; END", "", "u", "BIGINT UNSIGNED", "BEGIN SET @x = a; END", 2, false},
	} {
		r, ok, err := Function(tc.text)
		if !ok || err != nil {
			t.Fatalf("%q: ok %v, err %v", tc.text, ok, err)
		}
		if r.DB != tc.db || r.Name != tc.name || r.Returns != tc.returns || tc.text[r.Start:r.End] != tc.body || len(r.Params) != tc.params || r.HasReturn != tc.hasReturn {
			t.Errorf("%q: %+v", tc.text, r)
		}
	}
	text := "CREATE PROCEDURE IF NOT EXISTS `d`.p2 () SELECT 1"
	if r, _, _ := Procedure(text); text[r.NameSpan[0]:r.NameSpan[1]] != "`d`.p2" || text[r.IfNotExistsSpan[0]:r.IfNotExistsSpan[1]] != "IF NOT EXISTS" {
		t.Errorf("%s: name at %v, IF NOT EXISTS at %v", text, r.NameSpan, r.IfNotExistsSpan)
	}
	if r, _, _ := Procedure("  CREATE PROCEDURE p() SELECT 1"); r.HasDefiner || r.Created != 8 {
		t.Errorf("no definer: %+v", r)
	}
	if r, _, _ := Procedure("CREATE DEFINER = CURRENT_USER PROCEDURE p() SELECT 1"); !r.HasDefiner {
		t.Errorf("definer: %+v", r)
	}
	for _, tc := range []struct {
		text, user, host string
		invoker          bool
	}{
		{"CREATE DEFINER=`ro ot`@`local``host` PROCEDURE p() SQL SECURITY INVOKER SELECT 1", "ro ot", "local`host", true},
		{"CREATE DEFINER='app'@'%' PROCEDURE p() COMMENT 'x' SQL SECURITY DEFINER SELECT 1", "app", "%", false},
		{"CREATE DEFINER=app@localhost PROCEDURE p() SELECT 1", "app", "localhost", false},
		{`CREATE DEFINER="app"@"10.0.0.1" FUNCTION f() RETURNS INT SQL SECURITY INVOKER RETURN 1`, "app", "10.0.0.1", true},
		{"CREATE DEFINER = CURRENT_USER() PROCEDURE p() SELECT 1", "", "", false},
	} {
		read := Procedure
		if strings.Contains(tc.text, "FUNCTION") {
			read = Function
		}
		r, ok, err := read(tc.text)
		if !ok || err != nil || r.DefinerUser != tc.user || r.DefinerHost != tc.host || r.Invoker != tc.invoker {
			t.Errorf("%s: %+v, %v, %v", tc.text, r, ok, err)
		}
	}
	if _, ok, _ := Function("CREATE PROCEDURE p() SELECT 1"); ok {
		t.Error("a procedure read as a function")
	}
	if _, ok, _ := Procedure("CREATE FUNCTION f() RETURNS INT RETURN 1"); ok {
		t.Error("a function read as a procedure")
	}
}
