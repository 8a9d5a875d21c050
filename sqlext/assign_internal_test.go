package sqlext

import "testing"

func TestRewriteAssignments(t *testing.T) {
	for in, want := range map[string]string{
		"SELECT @a := 5, @a + 1":                          "SELECT sqlearn_assign_var('a', 5), @a + 1",
		"SELECT @n:=@n+1 AS rn FROM t":                    "SELECT sqlearn_assign_var('n', @n+1) AS rn FROM t",
		"SELECT (@x := 2) * 3":                            "SELECT (sqlearn_assign_var('x', 2)) * 3",
		"SELECT @a := @b := 1":                            "SELECT sqlearn_assign_var('a', sqlearn_assign_var('b', 1))",
		"SELECT @`odd name` := 1":                         "SELECT sqlearn_assign_var('odd name', 1)",
		"SELECT @v := CASE WHEN 1 THEN 2 ELSE 3 END AS c": "SELECT sqlearn_assign_var('v', CASE WHEN 1 THEN 2 ELSE 3 END) AS c",
		"SELECT CASE t WHEN 'a' THEN @dt:= IF(p=1,1,2) WHEN 'b' THEN @dt:=3 END":          "SELECT CASE t WHEN 'a' THEN sqlearn_assign_var('dt', IF(p=1,1,2)) WHEN 'b' THEN sqlearn_assign_var('dt', 3) END",
		"SELECT CAST(CASE @dt WHEN 1 THEN 2 END AS SIGNED), @tol:=CAST(x AS SIGNED) AS b": "SELECT CAST(CASE @dt WHEN 1 THEN 2 END AS SIGNED), sqlearn_assign_var('tol', CAST(x AS SIGNED)) AS b",
	} {
		got, ok := rewriteAssignments(in)
		if !ok || got != want {
			t.Errorf("rewriteAssignments(%q)\n= %q, %v\nwant %q", in, got, ok, want)
		}
	}
	for _, in := range []string{
		"SELECT ':=', \"@a := 1\", `@b := 2` -- @c := 3",
		"SELECT 1 /* @a := 1 */",
		"SET @a := 1, @b := 2",
		"SELECT @@sql_mode",
	} {
		if got, ok := rewriteAssignments(in); ok {
			t.Errorf("rewriteAssignments(%q) = %q, want it left alone", in, got)
		}
	}
}
