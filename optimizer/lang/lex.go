package lang

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ErrSyntax is wrapped by every parse error; errors.As finds the
// *SyntaxError with its position.
var ErrSyntax = errors.New("lang: syntax error")

// SyntaxError reports where a script stops making sense.
type SyntaxError struct {
	Pos Pos
	Msg string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("lang: syntax error at line %d, column %d: %s", e.Pos.Line, e.Pos.Col, e.Msg)
}

// Is lets errors.Is(err, ErrSyntax) match any *SyntaxError.
func (e *SyntaxError) Is(target error) bool { return target == ErrSyntax }

type tokKind uint8

const (
	tEOF tokKind = iota
	tNewline
	tNum
	tStr
	tIdent
	tSession // @name
	tOp      // operators and punctuation
)

type token struct {
	kind tokKind
	text string // operator text, identifier name or unquoted string
	num  float64
	pos  Pos
}

func (t token) describe() string {
	switch t.kind {
	case tEOF:
		return "end of script"
	case tNewline:
		return "end of line"
	case tStr:
		return strconv.Quote(t.text)
	case tSession:
		return "'@" + t.text + "'"
	}
	return "'" + t.text + "'"
}

type lexer struct {
	src       string
	off       int
	line, col int
	depth     int // open '(' count: newlines inside parentheses are not separators
}

func (l *lexer) errorf(p Pos, format string, args ...any) error {
	return &SyntaxError{Pos: p, Msg: fmt.Sprintf(format, args...)}
}

func (l *lexer) advance(n int) {
	for range n {
		if l.src[l.off] == '\n' {
			l.line++
			l.col = 1
		} else {
			l.col++
		}
		l.off++
	}
}

func isLetter(c byte) bool {
	return c == '_' || c == '.' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}
func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// threeOrTwo lists the operators longer than one byte, longest first.
var multiOps = []string{"%*%", "<-", "==", "!=", "<=", ">=", "&&", "||"}

const singleOps = "+-*/^<>!&|=(){},;:"

func (l *lexer) next() (token, error) {
	for l.off < len(l.src) {
		c := l.src[l.off]
		switch {
		case c == '#':
			for l.off < len(l.src) && l.src[l.off] != '\n' {
				l.advance(1)
			}
		case c == '\n' && l.depth == 0:
			p := Pos{l.line, l.col}
			l.advance(1)
			return token{kind: tNewline, text: "\n", pos: p}, nil
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			l.advance(1)
		default:
			return l.scan()
		}
	}
	return token{kind: tEOF, pos: Pos{l.line, l.col}}, nil
}

func (l *lexer) scan() (token, error) {
	p := Pos{l.line, l.col}
	rest := l.src[l.off:]
	c := rest[0]
	switch {
	case isDigit(c) || c == '.' && len(rest) > 1 && isDigit(rest[1]):
		return l.number(p)
	case isLetter(c):
		n := 1
		for n < len(rest) && (isLetter(rest[n]) || isDigit(rest[n])) {
			n++
		}
		l.advance(n)
		return token{kind: tIdent, text: rest[:n], pos: p}, nil
	case c == '@':
		n := 1
		for n < len(rest) && (isLetter(rest[n]) || isDigit(rest[n])) {
			n++
		}
		if n == 1 {
			return token{}, l.errorf(p, "'@' must be followed by a variable name")
		}
		l.advance(n)
		return token{kind: tSession, text: rest[1:n], pos: p}, nil
	case c == '"' || c == '\'':
		return l.str(p, c)
	}
	for _, op := range multiOps {
		if strings.HasPrefix(rest, op) {
			l.advance(len(op))
			return token{kind: tOp, text: op, pos: p}, nil
		}
	}
	if strings.IndexByte(singleOps, c) >= 0 {
		switch c {
		case '(':
			l.depth++
		case ')':
			l.depth = max(l.depth-1, 0)
		}
		l.advance(1)
		return token{kind: tOp, text: string(c), pos: p}, nil
	}
	if c == '%' {
		return token{}, l.errorf(p, "unknown operator starting with '%%' (only %%*%% is supported)")
	}
	return token{}, l.errorf(p, "unexpected character %q", rune(c))
}

func (l *lexer) number(p Pos) (token, error) {
	rest := l.src[l.off:]
	n := 0
	for n < len(rest) && isDigit(rest[n]) {
		n++
	}
	if n < len(rest) && rest[n] == '.' {
		n++
		for n < len(rest) && isDigit(rest[n]) {
			n++
		}
	}
	if n < len(rest) && (rest[n] == 'e' || rest[n] == 'E') {
		m := n + 1
		if m < len(rest) && (rest[m] == '+' || rest[m] == '-') {
			m++
		}
		if m < len(rest) && isDigit(rest[m]) {
			for m < len(rest) && isDigit(rest[m]) {
				m++
			}
			n = m
		}
	}
	v, err := strconv.ParseFloat(rest[:n], 64)
	if err != nil {
		return token{}, l.errorf(p, "bad number %q", rest[:n])
	}
	if n < len(rest) && isLetter(rest[n]) && rest[n] != '.' {
		return token{}, l.errorf(Pos{p.Line, p.Col + n}, "unexpected %q after number", rune(rest[n]))
	}
	l.advance(n)
	return token{kind: tNum, num: v, text: rest[:n], pos: p}, nil
}

func (l *lexer) str(p Pos, quote byte) (token, error) {
	var b strings.Builder
	l.advance(1)
	for l.off < len(l.src) {
		c := l.src[l.off]
		switch {
		case c == quote:
			l.advance(1)
			return token{kind: tStr, text: b.String(), pos: p}, nil
		case c == '\n':
			return token{}, l.errorf(p, "string not closed before end of line")
		case c == '\\' && l.off+1 < len(l.src):
			e := l.src[l.off+1]
			switch e {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case '\\', '"', '\'':
				b.WriteByte(e)
			default:
				return token{}, l.errorf(Pos{l.line, l.col}, "unknown escape \\%c", e)
			}
			l.advance(2)
		default:
			b.WriteByte(c)
			l.advance(1)
		}
	}
	return token{}, l.errorf(p, "string not closed before end of script")
}
