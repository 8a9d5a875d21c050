package lang

import (
	"errors"
	"strings"
	"testing"
)

func TestParseFormat(t *testing.T) {
	tests := []struct{ src, want string }{
		{"x = 1 + 2 * 3", "x = 1 + (2 * 3)\n"},
		{"x <- t(X) %*% X %*% w", "x = (t(X) %*% X) %*% w\n"},
		{"y = a * b %*% c", "y = a * (b %*% c)\n"},
		{"y = -2^2", "y = -(2 ^ 2)\n"},
		{"y = 2^3^2", "y = 2 ^ (3 ^ 2)\n"},
		{"y = -H %*% g", "y = (-H) %*% g\n"},
		{"z = a < b && !(c == d) || e", "z = ((a < b) && (!(c == d))) || e\n"},
		{"X = @X; y = TRUE", "X = @X\ny = 1\n"},
		{"print(\"a\\tb\", sum(x))", "print(\"a\\tb\", sum(x))\n"},
		{"s = 1e-3 + .5 + 2.", "s = (0.001 + 0.5) + 2\n"},
		{"v = f(\n  a,\n  b\n)", "v = f(a, b)\n"},
		{"v = a +\n  b", "v = a + b\n"},
		{"while (i < 3) { i = i + 1 }", "while (i < 3) {\n  i = i + 1\n}\n"},
		{"for (i in 1:n+1) {\n x = i\n}", "for (i in 1:(n + 1)) {\n  x = i\n}\n"},
		{"if (a) { b = 1 }\nelse { b = 2 }", "if (a) {\n  b = 1\n} else {\n  b = 2\n}\n"},
		{"if (a) { b = 1 } else if (c) { b = 2 }", "if (a) {\n  b = 1\n} else {\n  if (c) {\n    b = 2\n  }\n}\n"},
		{"# comment only\n\n", ""},
		{"x = 1 # trailing\ny = x", "x = 1\ny = x\n"},
	}
	for _, tc := range tests {
		p, err := Parse(tc.src)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.src, err)
			continue
		}
		if got := FormatProgram(p); got != tc.want {
			t.Errorf("Parse(%q) formats as\n%s\nwant\n%s", tc.src, got, tc.want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		src       string
		line, col int
		msg       string
	}{
		{"x = (1 + 2", 1, 11, "expected ')'"},
		{"x = 1\ny = * 2", 2, 5, "expected an expression"},
		{"while (i < 3 {\n}", 1, 14, "expected ')'"},
		{"for (i in 1) { }", 1, 12, "expected ':'"},
		{"x = 1 2", 1, 7, "expected end of statement"},
		{"x = \"abc", 1, 5, "string not closed"},
		{"x = a %% b", 1, 7, "unknown operator"},
		{"x = 3abc", 1, 6, "after number"},
		{"if (a) {\n  b = 1\n", 3, 1, "expected '}'"},
		{"else = 2", 1, 1, "unexpected 'else'"},
		{"x = $", 1, 5, "unexpected character"},
		{"  y = @", 1, 7, "'@' must be followed"},
	}
	for _, tc := range tests {
		_, err := Parse(tc.src)
		var se *SyntaxError
		if !errors.As(err, &se) || !errors.Is(err, ErrSyntax) {
			t.Errorf("Parse(%q) = %v, want a syntax error", tc.src, err)
			continue
		}
		if se.Pos.Line != tc.line || se.Pos.Col != tc.col || !strings.Contains(se.Msg, tc.msg) {
			t.Errorf("Parse(%q) = %v, want line %d column %d containing %q", tc.src, err, tc.line, tc.col, tc.msg)
		}
	}
}

func TestParseDepthLimit(t *testing.T) {
	src := "x = " + strings.Repeat("(", 1000) + "1" + strings.Repeat(")", 1000)
	if _, err := Parse(src); !errors.Is(err, ErrSyntax) {
		t.Fatalf("deep nesting: got %v, want a syntax error", err)
	}
}

// FuzzParse checks that the parser never panics and that every program it
// accepts prints to text that parses back to the same program.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"x = t(X) %*% X %*% w",
		"while (i < 10 && !done) {\n  i = i + 1\n}",
		"for (k in 1:n) { g = 2 * (t(A) %*% A %*% x - c); print(\"g\", g) }",
		"if (a >= b) { y = -a^2 } else { y = sqrt(abs(b)) / 3 }",
		"X = query(\"SELECT a, b FROM t\"); save(X, 'out')",
		"h = h - (h %*% d) / (t(d) %*% h %*% d)",
		"y = @X\nz = y",
		"x = 1e-300 * .5",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		p, err := Parse(src)
		if err != nil {
			if !errors.Is(err, ErrSyntax) {
				t.Fatalf("Parse(%q) returned a non-syntax error %v", src, err)
			}
			return
		}
		text := FormatProgram(p)
		q, err := Parse(text)
		if err != nil {
			t.Fatalf("formatted program %q does not parse: %v", text, err)
		}
		if again := FormatProgram(q); again != text {
			t.Fatalf("format is not stable:\n%s\nthen\n%s", text, again)
		}
	})
}
